import { type Account, getAddress, type Hex, keccak256 } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evmMoneyReader } from '../scripts/lib/money-audit-chain.ts';
import { runMoneyAudit } from '../scripts/lib/money-audit-sources.ts';
import { auditClient } from '../scripts/lib/payout-audit-sources.ts';
import { anvilAccount } from '../src/infra/chain/anvil.ts';
import type { Database } from '../src/infra/db/client.ts';
import { agents, walletIntents, walletTxs } from '../src/infra/db/schema.ts';
import { formatMoneyAudit, type MoneyDifference } from '../src/modules/audit/money-audit.ts';
import { startTestChain, type TestChain } from './helpers/chain.ts';
import { leaseTestDatabase } from './helpers/database.ts';

const WALLET_ACCOUNT = 7;
const RECEIVER_ACCOUNT = 8;

/**
 * `npm run audit:money`'s rules on a real anvil: a request whose two attempts both mined is
 * reported (once the second is final: head minus PAYOUT_CONFIRMATIONS), and every sponsor nonce
 * must be a recorded transaction (a nonce filler is one).
 */
describe('the money audit against a real chain', () => {
  let tc: TestChain;
  let database: Database;
  let giveBack: () => Promise<void>;
  const wallet = anvilAccount(WALLET_ACCOUNT);

  beforeAll(async () => {
    tc = await startTestChain();
    ({ database, giveBack } = await leaseTestDatabase());
    const now = new Date();
    await database.db.insert(agents).values({
      id: 'agent_w',
      name: 'wallet-owner',
      nameFold: 'wallet owner',
      walletAddress: wallet.address,
      apiKeyHash: 'k',
      createdAt: now,
      updatedAt: now,
    });
  });
  afterAll(async () => {
    await giveBack?.();
    await tc?.stop();
  });

  const audit = (confirmations = 0) =>
    runMoneyAudit(database.db, evmMoneyReader(auditClient(tc.rpcUrl)), {
      payoutSigner: tc.chain.payoutSigner.address,
      sponsor: tc.chain.sponsor.address,
      routerAddress: tc.chain.payoutSigner.routerAddress,
      confirmations,
      withdrawalsPerDay: 5,
    });
  const added = (before: MoneyDifference[], after: MoneyDifference[]) => {
    const seen = new Set(before.map((d) => `${d.code}:${d.message}`));
    return after.filter((d) => !seen.has(`${d.code}:${d.message}`));
  };

  /** 1 wei to `to` (the signer itself: a nonce filler, 0 wei), signed at the pending nonce and mined. */
  async function send(account: Account, to: string) {
    const nonce = await tc.pub.getTransactionCount({ address: account.address, blockTag: 'pending' });
    const raw = await (account.signTransaction as NonNullable<Account['signTransaction']>)({
      chainId: tc.options.chainId,
      type: 'eip1559',
      to: getAddress(to),
      value: to === account.address ? 0n : 1n,
      nonce,
      gas: 21_000n,
      ...(await tc.pub.estimateFeesPerGas()),
    });
    const hash = await tc.pub.sendRawTransaction({ serializedTransaction: raw });
    expect(hash).toBe(keccak256(raw));
    const receipt = await tc.pub.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    return { hash: hash as Hex, raw, nonce };
  }

  async function record(
    sent: { hash: Hex; raw: string; nonce: number },
    o: { signer: string; kind: string; intentId: string | null; status: 'mined' | 'replaced' },
  ) {
    const now = new Date();
    await database.db.insert(walletTxs).values({
      hash: sent.hash,
      signer: o.signer,
      nonce: sent.nonce,
      raw: sent.raw,
      kind: o.kind,
      agentId: o.intentId ? 'agent_w' : null,
      intentId: o.intentId,
      status: o.status,
      gasPaidUnits: o.status === 'mined' ? 21_000n : null,
      createdAt: now,
      updatedAt: now,
    });
  }

  it('reports a request two of whose attempts both mined successfully, once both are final', async () => {
    const start = await audit();
    expect(start.differences, formatMoneyAudit(start)).toEqual([]);
    const before = start.differences;
    const receiver = anvilAccount(RECEIVER_ACCOUNT).address;
    const first = await send(wallet, receiver);
    const now = new Date();
    await database.db.insert(walletIntents).values({
      id: 'wtx_chain_1',
      agentId: 'agent_w',
      requestKey: 'k1',
      kind: 'withdraw_eth',
      holder: wallet.address,
      signer: wallet.address,
      nonce: first.nonce,
      toAddress: receiver,
      data: '0x',
      valueUnits: 1n,
      gas: 21_000n,
      status: 'confirmed',
      txHash: first.hash,
      createdAt: now,
      updatedAt: now,
    });
    await record(first, {
      signer: wallet.address,
      kind: 'withdraw_eth',
      intentId: 'wtx_chain_1',
      status: 'mined',
    });
    const clean = await audit();
    expect(added(before, clean.differences), formatMoneyAudit(clean)).toEqual([]);

    // The same request signed again at the next nonce, believed replaced: it mined too.
    const second = await send(wallet, receiver);
    await record(second, {
      signer: wallet.address,
      kind: 'withdraw_eth',
      intentId: 'wtx_chain_1',
      status: 'replaced',
    });
    // With 1 confirmation the final block is the one before the head: the second attempt is not final yet.
    const notFinal = await audit(1);
    expect(added(before, notFinal.differences)).toEqual([]);
    expect(notFinal.notes.join('\n')).toContain(
      `${second.hash} mined successfully after the final block, besides ${first.hash}`,
    );

    const report = await audit();
    expect(
      added(before, report.differences).map((d) => [d.rule, d.code, d.intentId, d.txHash]),
      formatMoneyAudit(report),
    ).toEqual([
      ['once', 'intent_executed_twice', 'wtx_chain_1', second.hash],
      ['once', 'attempt_status_differs', 'wtx_chain_1', second.hash],
    ]);
    expect(report.differences.find((d) => d.code === 'intent_executed_twice')?.message).toContain(
      `${first.hash}, ${second.hash}`,
    );
  });

  it('accounts for every sponsor nonce: a recorded nonce filler passes, an unrecorded transaction does not', async () => {
    const sponsor = privateKeyToAccount(tc.options.sponsorKey as Hex);
    expect(sponsor.address).toBe(tc.chain.sponsor.address);
    const before = (await audit()).differences;
    const filler = await send(sponsor, sponsor.address);
    await record(filler, { signer: sponsor.address, kind: 'nonce_filler', intentId: null, status: 'mined' });
    expect(added(before, (await audit()).differences)).toEqual([]);

    const unknown = await send(sponsor, anvilAccount(RECEIVER_ACCOUNT).address);
    const report = await audit();
    expect(added(before, report.differences).map((d) => [d.rule, d.code])).toEqual([
      ['sponsor_nonces', 'sponsor_nonce_unknown'],
    ]);
    expect(report.differences.find((d) => d.code === 'sponsor_nonce_unknown')?.message).toContain(
      `nonce(s) ${unknown.nonce}`,
    );
  });
});
