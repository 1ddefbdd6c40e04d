import { createHash } from 'node:crypto';
import { getAddress, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { DeployedProject, TxResult } from '../../src/infra/chain/chain.ts';
import { FakeChain } from './fake-chain.ts';

const addressFrom = (seed: string) =>
  getAddress(`0x${createHash('sha256').update(seed).digest('hex').slice(0, 40)}`);

/**
 * FakeChain plus what a founder's walk-through needs from an in-app wallet on a dev chain:
 * deployment (a token and curve address per project), the faucet, ETH balances and buying tokens
 * and selling tokens at a fixed price of 1000 tokens per ETH. Payouts stay FakeChain's own.
 */
export class DocsChain extends FakeChain {
  private readonly eth = new Map<string, bigint>();
  private readonly tokenOfCurve = new Map<string, string>();
  private txs = 0;

  constructor() {
    super();
    // Instance properties: FakeChain's methods take no arguments, so they cannot be overridden.
    Object.assign(this, {
      deployProject: async (projectId: string): Promise<DeployedProject> => {
        const pair = {
          tokenAddress: addressFrom(`token:${projectId}`),
          curveAddress: addressFrom(`curve:${projectId}`),
        };
        this.tokenOfCurve.set(pair.curveAddress.toLowerCase(), pair.tokenAddress);
        // A flat curve at the buy price (0.001 ETH a token), deep enough for any sale here.
        this.setCurve(pair.curveAddress, { a: 10n ** 15n, b: 0n, supplyUnits: 10n ** 27n });
        return pair;
      },
      faucet: async (to: string, ethUnits: bigint): Promise<TxResult> => {
        this.eth.set(to.toLowerCase(), (this.eth.get(to.toLowerCase()) ?? 0n) + ethUnits);
        return { txHash: this.nextTx() };
      },
    });
    Object.assign(this.wallets, {
      ethBalance: async (address: string) => this.eth.get(address.toLowerCase()) ?? 0n,
      tokenBalance: async (token: string, owner: string) => (await this.readFunds(token, owner)).balanceUnits,
      buy: async (key: string, curve: string, ethUnits: bigint) => {
        const owner = privateKeyToAccount(key as Hex).address;
        const token = this.tokenOfCurve.get(curve.toLowerCase());
        if (!token) throw new Error(`no project has curve ${curve}`);
        const tokensUnits = ethUnits * 1000n;
        const funds = await this.readFunds(token, owner);
        this.setFundsUnits(token, owner, funds.balanceUnits + tokensUnits, funds.allowanceUnits);
        this.eth.set(owner.toLowerCase(), (this.eth.get(owner.toLowerCase()) ?? 0n) - ethUnits);
        return { txHash: this.nextTx(), tokensUnits };
      },
      // A sale at the same price: this chain charges no gas, so nothing needs sponsoring.
      sell: async (key: string, curve: string, tokensUnits: bigint) => {
        const owner = privateKeyToAccount(key as Hex).address;
        const token = this.tokenOfCurve.get(curve.toLowerCase());
        if (!token) throw new Error(`no project has curve ${curve}`);
        const funds = await this.readFunds(token, owner);
        this.setFundsUnits(token, owner, funds.balanceUnits - tokensUnits, funds.allowanceUnits);
        const ethUnits = tokensUnits / 1000n;
        this.eth.set(owner.toLowerCase(), (this.eth.get(owner.toLowerCase()) ?? 0n) + ethUnits);
        return { txHash: this.nextTx(), ethUnits };
      },
    });
  }

  private nextTx(): string {
    return `0x${(++this.txs).toString(16).padStart(64, 'e')}`;
  }
}
