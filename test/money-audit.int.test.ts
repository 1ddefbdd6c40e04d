import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runMoneyAudit } from '../scripts/lib/money-audit-sources.ts';
import type { Database } from '../src/infra/db/client.ts';
import { agents, bounties, projects, submissions, walletIntents, walletTxs } from '../src/infra/db/schema.ts';
import { formatMoneyAudit } from '../src/modules/audit/money-audit.ts';
import { leaseTestDatabase } from './helpers/database.ts';
import { FakeMoneyReader, FINAL, HEAD, receipt, SPONSOR, tx, WALLET } from './helpers/money-audit-scenes.ts';
import { addr, UNIT } from './helpers/payout-audit-scenes.ts';

/**
 * The money audit's reads on this file's database (PGlite, and PostgreSQL when configured):
 * requests, their transactions and owed rewards as the tables hold them, judged against a fake
 * chain reader, every pinned read at the final block (head minus PAYOUT_CONFIRMATIONS).
 */

const FOUNDER = addr('f');
const TOKEN = addr('a');
const ROUTER = addr('7');
const PAYOUT_KEY = addr('5');
const NOW = new Date('2025-03-01T12:00:00.000Z');
const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000);

describe('the money audit on the database', () => {
  let database: Database;
  let giveBack: () => Promise<void>;
  let reader: FakeMoneyReader;
  const db = () => database.db;
  const audit = (withdrawalsPerDay = 2) =>
    runMoneyAudit(db(), reader, {
      payoutSigner: PAYOUT_KEY,
      sponsor: SPONSOR,
      routerAddress: ROUTER,
      confirmations: 10,
      withdrawalsPerDay,
      now: NOW,
    });

  beforeAll(async () => {
    ({ database, giveBack } = await leaseTestDatabase());
    const base = { apiKeyHash: '', createdAt: ago(86_400), updatedAt: ago(86_400) };
    await db()
      .insert(agents)
      .values([
        {
          ...base,
          id: 'agent_f',
          name: 'founder',
          nameFold: 'founder',
          walletAddress: FOUNDER,
          apiKeyHash: 'kf',
        },
        { ...base, id: 'agent_d', name: 'dev', nameFold: 'dev', walletAddress: WALLET, apiKeyHash: 'kd' },
      ]);
    await db()
      .insert(projects)
      .values({
        id: 'proj_1',
        name: 'p',
        status: 'active',
        founderId: 'agent_f',
        tokenSymbol: 'PRJ',
        tokenAddress: TOKEN,
        createdAt: ago(86_400),
        updatedAt: ago(86_400),
      });
  });
  afterAll(async () => {
    await giveBack?.();
  });

  beforeEach(async () => {
    await db().delete(walletTxs);
    await db().delete(walletIntents);
    await db().delete(submissions);
    await db().delete(bounties);
    reader = new FakeMoneyReader();
    reader.nonces.set(SPONSOR, 2);
  });

  /** A sponsored sale (sponsor nonce 0) and a sponsored withdraw (nonce 1), each mined once. */
  async function cleanRequests() {
    const intent = (id: string, kind: string, nonce: number, hash: string, createdAt: Date) => ({
      id,
      agentId: 'agent_d',
      requestKey: `key-${id}`,
      kind,
      projectId: 'proj_1',
      holder: WALLET,
      signer: SPONSOR,
      nonce,
      toAddress: TOKEN,
      data: '0x',
      valueUnits: 0n,
      gas: 200_000n,
      status: 'confirmed' as const,
      txHash: hash,
      blockNumber: 90n,
      result: { tx_hash: hash },
      createdAt,
      updatedAt: createdAt,
    });
    await db()
      .insert(walletIntents)
      .values([
        intent('wtx_sell', 'sponsored_sell', 0, tx(1), ago(600)),
        intent('wtx_wd', 'sponsored_withdraw', 1, tx(2), ago(500)),
      ]);
    const row = (hash: string, kind: string, nonce: number, intentId: string, createdAt: Date) => ({
      hash,
      signer: SPONSOR,
      nonce,
      raw: '0x02',
      kind,
      agentId: 'agent_d',
      projectId: 'proj_1',
      intentId,
      status: 'mined' as const,
      gasPaidUnits: 1000n,
      gasRefundUnits: kind === 'sponsored_sell' ? 1000n : null,
      blockNumber: 90n,
      createdAt,
      updatedAt: createdAt,
    });
    await db()
      .insert(walletTxs)
      .values([
        row(tx(1), 'sponsored_sell', 0, 'wtx_sell', ago(600)),
        row(tx(2), 'sponsored_withdraw', 1, 'wtx_wd', ago(500)),
      ]);
    reader.receipts.set(tx(1), receipt(tx(1), SPONSOR, { gasRefundUnits: 1000n }));
    reader.receipts.set(tx(2), receipt(tx(2), SPONSOR));
  }

  it('passes requests each executed once, reading everything at the final block', async () => {
    await cleanRequests();
    const report = await audit();
    expect(report.differences, formatMoneyAudit(report)).toEqual([]);
    expect(report.summary).toMatchObject({
      head: HEAD,
      finalBlock: FINAL,
      intents: 2,
      walletTxs: 2,
      sponsorTxs: 2,
    });
    expect([...reader.readAt]).toEqual([FINAL]);
  });

  it('reports a request executed twice, a sponsor nonce no row holds, and a reverted sponsor transaction', async () => {
    await cleanRequests();
    // A second attempt of the sale, at another nonce, also mined; and nonce 3 is unknown.
    await db()
      .insert(walletTxs)
      .values({
        hash: tx(3),
        signer: SPONSOR,
        nonce: 2,
        raw: '0x02',
        kind: 'sponsored_sell',
        agentId: 'agent_d',
        intentId: 'wtx_sell',
        status: 'reverted',
        createdAt: ago(400),
        updatedAt: ago(400),
      });
    reader.receipts.set(tx(3), receipt(tx(3), SPONSOR, { status: 'reverted' }));
    reader.nonces.set(SPONSOR, 4);
    let report = await audit();
    expect(report.differences.map((d) => [d.rule, d.code])).toEqual([
      ['sponsor_nonces', 'sponsor_nonce_unknown'],
      ['sponsor_spend', 'sponsor_tx_reverted'],
    ]);
    reader.receipts.set(tx(3), receipt(tx(3), SPONSOR));
    report = await audit();
    expect(report.differences.map((d) => [d.code, d.intentId])).toEqual([
      ['intent_executed_twice', 'wtx_sell'],
      ['attempt_status_differs', 'wtx_sell'],
      ['sponsor_nonce_unknown', undefined],
    ]);
  });

  it('reports counted sponsored withdraws over the quota in 24 h, and not uncounted ones', async () => {
    await cleanRequests();
    const withdraw = (id: string, hoursAgo: number, counted: boolean) => ({
      id,
      agentId: 'agent_d',
      kind: 'sponsored_withdraw',
      holder: WALLET,
      signer: SPONSOR,
      nonce: 9,
      toAddress: TOKEN,
      data: '0x',
      valueUnits: 0n,
      gas: 0n,
      status: 'failed' as const,
      errorCode: 'refused',
      counted,
      createdAt: ago(hoursAgo * 3600),
      updatedAt: ago(hoursAgo * 3600),
    });
    await db()
      .insert(walletIntents)
      .values(withdraw('wtx_q1', 20, true));
    await db()
      .insert(walletIntents)
      .values(withdraw('wtx_q2', 2, false));
    expect((await audit()).differences).toEqual([]);
    await db()
      .insert(walletIntents)
      .values(withdraw('wtx_q3', 3, true));
    const report = await audit();
    expect(report.differences.map((d) => d.code)).toEqual(['withdraw_quota_exceeded']);
    expect(report.differences[0]?.message).toContain('wtx_q1, wtx_q3, wtx_wd');
    expect(report.differences[0]?.message).toContain('had 3 counted sponsored withdraws within 24 h');
  });

  it('reports a reward owed over a minute that the founder’s funds at the final block cover', async () => {
    await db()
      .insert(bounties)
      .values({
        id: 'bnt_1',
        projectId: 'proj_1',
        title: 't',
        description: 'd',
        rewardAmount: 100,
        difficulty: 'easy',
        status: 'in_review',
        claimedBy: 'agent_d',
        paymentOwed: true,
        createdAt: ago(3600),
        updatedAt: ago(120),
      });
    await db()
      .insert(submissions)
      .values({
        id: 'sub_1',
        bountyId: 'bnt_1',
        agentId: 'agent_d',
        prUrl: 'https://example.test/r/pull/1',
        status: 'pending',
        founderMerged: true,
        mergedAt: ago(120),
        createdAt: ago(600),
        updatedAt: ago(120),
      });
    reader.nonces.set(SPONSOR, 0);
    reader.balances.set(`${TOKEN}:${FOUNDER}`, { balance: 100n * UNIT, allowance: 99n * UNIT });
    let report = await audit();
    expect(report.differences, formatMoneyAudit(report)).toEqual([]);
    expect(report.notes.join('\n')).toContain('has been owed 100 for 120 s');
    reader.balances.set(`${TOKEN}:${FOUNDER}`, { balance: 100n * UNIT, allowance: 100n * UNIT });
    report = await audit();
    expect(report.differences.map((d) => [d.rule, d.code])).toEqual([['owed', 'owed_while_funded']]);
    expect(report.differences[0]?.message).toContain(`funds at block ${FINAL} cover it`);
    expect([...reader.readAt]).toEqual([FINAL]);
  });
});
