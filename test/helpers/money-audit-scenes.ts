/** Hand-fed scenes for the money audit (`auditMoney`): requests, their transactions, the chain. */

import type { MoneyChainReader } from '../../scripts/lib/money-audit-sources.ts';
import type { LedgerWithTokens } from '../../scripts/lib/payout-audit-sources.ts';
import type {
  AuditIntent,
  AuditReceipt,
  AuditWalletTx,
  MoneyAuditInput,
} from '../../src/modules/audit/money-audit.ts';
import type { AuditChain } from '../../src/modules/payouts/payouts-audit.ts';
import { addr, paidScene } from './payout-audit-scenes.ts';

export const SPONSOR = addr('c');
export const WALLET = addr('b');
export const AGENT = 'agt_1';
/** A distinct transaction hash per number. */
export const tx = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
export const T0 = new Date('2025-01-01T00:00:00.000Z');
export const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
export const HEAD = 110n;
export const FINAL = 100n;

export function intent(o: Partial<AuditIntent> & Pick<AuditIntent, 'id' | 'kind'>): AuditIntent {
  const sponsored = o.kind.startsWith('sponsored_');
  return {
    agentId: AGENT,
    holder: WALLET,
    signer: sponsored ? SPONSOR : WALLET,
    nonce: 0,
    status: 'confirmed',
    txHash: null,
    errorCode: null,
    counted: o.kind === 'sponsored_withdraw',
    createdAt: T0,
    ...o,
  };
}

export function row(o: Partial<AuditWalletTx> & Pick<AuditWalletTx, 'hash' | 'kind'>): AuditWalletTx {
  return {
    signer: o.kind.startsWith('sponsored_') || o.kind === 'nonce_filler' ? SPONSOR : WALLET,
    nonce: 0,
    agentId: o.kind === 'nonce_filler' ? null : AGENT,
    intentId: null,
    status: 'mined',
    gasPaidUnits: null,
    gasRefundUnits: null,
    createdAt: T0,
    ...o,
  };
}

export function receipt(hash: string, from: string, o: Partial<AuditReceipt> = {}): AuditReceipt {
  return { hash, from, status: 'success', blockNumber: 90n, gasPaidUnits: 1000n, gasRefundUnits: null, ...o };
}

/**
 * A clean money scene beside the payout audit's paid bounty: the in-app wallet bought (nonce 0)
 * and had a withdraw refused by the node (nonce 1 given back, the request failed); the sponsor
 * relayed a sale (nonce 0, gas refunded in full), filled nonce 1, relayed a withdraw (nonce 2).
 */
export function moneyScene(): MoneyAuditInput {
  const payouts = paidScene();
  return {
    payouts,
    money: {
      ledger: {
        intents: [
          intent({ id: 'wtx_buy', kind: 'buy', txHash: tx(1) }),
          intent({
            id: 'wtx_fail',
            kind: 'withdraw_token',
            nonce: 1,
            status: 'failed',
            errorCode: 'upstream',
          }),
          intent({ id: 'wtx_sell', kind: 'sponsored_sell', txHash: tx(11), createdAt: at(10) }),
          intent({ id: 'wtx_wd', kind: 'sponsored_withdraw', nonce: 2, txHash: tx(13), createdAt: at(20) }),
        ],
        walletTxs: [
          row({ hash: tx(1), kind: 'buy', intentId: 'wtx_buy' }),
          row({ hash: tx(2), kind: 'withdraw_token', nonce: 1, intentId: 'wtx_fail', status: 'failed' }),
          row({
            hash: tx(11),
            kind: 'sponsored_sell',
            intentId: 'wtx_sell',
            gasPaidUnits: 1000n,
            gasRefundUnits: 1000n,
            createdAt: at(10),
          }),
          row({ hash: tx(12), kind: 'nonce_filler', nonce: 1, createdAt: at(15) }),
          row({
            hash: tx(13),
            kind: 'sponsored_withdraw',
            nonce: 2,
            intentId: 'wtx_wd',
            gasPaidUnits: 500n,
            createdAt: at(20),
          }),
        ],
        owed: [],
        sponsor: SPONSOR,
        withdrawalsPerDay: 2,
      },
      chain: {
        head: HEAD,
        finalBlock: FINAL,
        receipts: [
          receipt(tx(1), WALLET),
          receipt(tx(11), SPONSOR, { gasRefundUnits: 1000n }),
          receipt(tx(12), SPONSOR, { gasPaidUnits: 21_000n }),
          receipt(tx(13), SPONSOR, { gasPaidUnits: 500n }),
        ],
        txs: [{ hash: tx(12), from: SPONSOR, nonce: 1, to: SPONSOR, value: 0n, input: '0x' }],
        sponsorNonce: 3,
        funds: [],
      },
    },
    now: at(3600),
    confirmations: 10,
  };
}

/** A chain reader answering from what a test put in it (the money audit's reads, without a node). */
export class FakeMoneyReader implements MoneyChainReader {
  headBlock = HEAD;
  receipts = new Map<string, AuditReceipt>();
  sent = new Map<string, { from: string; nonce: number; to: string | null; value: bigint; input: string }>();
  nonces = new Map<string, number>();
  balances = new Map<string, { balance: bigint; allowance: bigint }>();
  payoutChain: AuditChain = { txs: [], transfers: [], signerNonces: {} };
  /** Every block a pinned read asked for: the audit reads at one. */
  readAt = new Set<bigint>();

  async head() {
    return this.headBlock;
  }
  async receipt(hash: string) {
    return this.receipts.get(hash.toLowerCase()) ?? null;
  }
  async transaction(hash: string) {
    const t = this.sent.get(hash.toLowerCase());
    return t ? { hash, ...t } : null;
  }
  async nonceAt(address: string, block: bigint) {
    this.readAt.add(block);
    return this.nonces.get(address.toLowerCase()) ?? 0;
  }
  async funds(token: string, owner: string, _spender: string, block: bigint) {
    this.readAt.add(block);
    return this.balances.get(`${token}:${owner}`.toLowerCase()) ?? { balance: 0n, allowance: 0n };
  }
  async payouts(_ledger: LedgerWithTokens, block: bigint) {
    this.readAt.add(block);
    return this.payoutChain;
  }
}
