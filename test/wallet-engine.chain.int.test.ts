import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { type Hex, parseEventLogs } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { bondingCurveAbi } from '../src/infra/chain/contracts/BondingCurve.ts';
import { accountNonces, activityEvents, walletTxs } from '../src/infra/db/schema.ts';
import { insertOrReopenFiller } from '../src/modules/transactions/transactions.repo.ts';
import { expectError, randomAddress, type TestAgent, type TestApp } from './helpers/app.ts';
import { startTestChain, type TestChain } from './helpers/chain.ts';
import { engineScene } from './helpers/wallet-engine.ts';
import { TOKEN } from './helpers/wallets.ts';

type Scene = Awaited<ReturnType<typeof engineScene>>;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * The transaction engine against a real chain behind a proxy that loses answers: each request
 * executes at most once (proven by the token's Transfer logs and the curve's Sold events), a retry
 * with the same Idempotency-Key gets the first request's transaction, a lost mined transaction is
 * put back without wedging its signer, and a stuck one is replaced at its nonce.
 */
describe('the wallet transaction engine', () => {
  let tc: TestChain;
  let s: Scene;

  const send = (app: TestApp, agent: TestAgent, url: string, payload: object, key?: string) =>
    app.inject({
      method: 'POST',
      url,
      headers: { ...agent.headers, ...(key ? { 'idempotency-key': key } : {}) },
      payload,
    });
  const sell = (agent: TestAgent, tokens: bigint, key?: string, app = s.ctx.app) =>
    send(
      app,
      agent,
      `/api/projects/${s.project.id}/sell`,
      { tokens_units: (tokens * TOKEN).toString() },
      key,
    );
  const withdraw = (agent: TestAgent, to: string, tokens: bigint, key?: string, app = s.ctx.app) =>
    send(
      app,
      agent,
      '/api/agents/me/wallet/withdraw',
      { to, amount_units: (tokens * TOKEN).toString(), project_id: s.project.id },
      key,
    );
  const transaction = async (agent: TestAgent, id: string) => {
    const res = await s.ctx.app.inject({
      method: 'GET',
      url: `/api/agents/me/wallet/transactions/${id}`,
      headers: agent.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().transaction as {
      id: string;
      status: string;
      tx_hash: string;
      result: Record<string, string>;
    };
  };
  const engine = () => s.ctx.app.services.txEngine.run();
  /** Runs the engine (clock moved past its follow-up delay) until `done` holds, for at most `ms`. */
  async function settle(done: () => Promise<boolean>, ms = 15_000) {
    const until = Date.now() + ms;
    for (;;) {
      s.ctx.clock.advance(5_000);
      await engine();
      if (await done()) return;
      if (Date.now() > until) throw new Error('the engine did not settle it in time');
      await sleep(200);
    }
  }
  const eventsOf = (agent: TestAgent, type: string) =>
    s.ctx.database.db
      .select()
      .from(activityEvents)
      .where(and(eq(activityEvents.type, type), eq(activityEvents.agentId, agent.id)));

  beforeAll(async () => {
    tc = await startTestChain();
    s = await engineScene(tc, {
      PAYOUT_RECEIPT_TIMEOUT_SECONDS: '2',
      PAYOUT_STUCK_AFTER_SECONDS: '1',
      SPONSORED_WITHDRAWALS_PER_DAY: '1',
    });
  });
  afterEach(async () => {
    s.proxy.set({});
    await tc.test.setAutomine(true);
  });
  afterAll(async () => {
    await s?.close();
    await tc?.stop();
  });

  it('sells once when the answer to the broadcast and the receipts are lost, and a retry gets the same transaction', async () => {
    const dev = await s.holder(100n);
    const me = dev.walletAddress as string;
    const key = randomUUID();
    // The sale reaches the node; every answer about it is lost on the way back.
    s.proxy.set({
      fail: {
        methods: ['eth_sendRawTransaction', 'eth_getTransactionReceipt'],
        mode: 'reset',
        afterForwarding: true,
      },
    });
    const first = await sell(dev, 10n, key);
    expect(first.statusCode, first.body).toBe(202);
    const pending = first.json();
    expect(pending.transaction).toMatchObject({ status: 'pending', kind: 'sponsored_sell' });
    expect(pending.tx_hash).toBe(pending.transaction.tx_hash);
    // Retried while answers are still lost: the same transaction, nothing sent again.
    const again = await sell(dev, 10n, key);
    expect(again.statusCode, again.body).toBe(202);
    expect(again.json().transaction.id).toBe(pending.transaction.id);
    s.proxy.set({});
    await settle(async () => (await transaction(dev, pending.transaction.id)).status === 'confirmed');
    // Once settled, the same key answers 200 with the first request's result.
    const done = await sell(dev, 10n, key);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ tx_hash: pending.tx_hash, sponsored: true });
    expect(await s.salesOf(me)).toEqual([{ tokensIn: 10n * TOKEN, txHash: pending.tx_hash }]);
    expect((await s.movedFrom(me)).filter((m) => m.to === 'burn')).toHaveLength(1);
    expect(await eventsOf(dev, 'wallet.tx_confirmed')).toHaveLength(1);
  });

  it('withdraws once when the broadcast answer is lost, and counts it once against the quota', async () => {
    const dev = await s.holder(30n);
    const to = randomAddress();
    const key = randomUUID();
    s.proxy.set({ fail: { methods: ['eth_sendRawTransaction'], mode: 'reset', afterForwarding: true } });
    const first = await withdraw(dev, to, 10n, key);
    expect([200, 202]).toContain(first.statusCode);
    s.proxy.set({});
    const retry = await withdraw(dev, to, 10n, key);
    expect([200, 202]).toContain(retry.statusCode);
    expect(retry.json().tx_hash).toBe(first.json().tx_hash);
    await settle(async () => (await s.movedFrom(dev.walletAddress as string)).length === 1);
    expect(await s.movedFrom(dev.walletAddress as string)).toEqual([
      {
        to: expect.stringMatching(new RegExp(to.slice(2), 'i')),
        value: 10n * TOKEN,
        txHash: first.json().tx_hash,
      },
    ]);
    // The quota of 1 is used by that one withdraw: another one is refused, nothing moves.
    expectError(await withdraw(dev, to, 10n), 400, 'insufficient_eth');
    expect(await s.movedFrom(dev.walletAddress as string)).toHaveLength(1);
  });

  it('answers 202 past the receipt timeout, then confirms the same transaction once it mines', async () => {
    const dev = await s.holder(50n);
    const key = randomUUID();
    await tc.test.setAutomine(false);
    const first = await sell(dev, 5n, key);
    expect(first.statusCode, first.body).toBe(202);
    const id = first.json().transaction.id as string;
    expect((await transaction(dev, id)).status).toBe('pending');
    // The key still names that request: another body under it is refused, nothing is sent.
    const other = await sell(dev, 6n, key);
    expect(other.statusCode, other.body).toBe(422);
    expect(other.json().error.code).toBe('idempotency_key_reused');
    await tc.test.mine({ blocks: 1 });
    await tc.test.setAutomine(true);
    await settle(async () => (await transaction(dev, id)).status === 'confirmed');
    const t = await transaction(dev, id);
    expect(t.result).toMatchObject({ tx_hash: first.json().tx_hash, sponsored: true });
    const retry = await sell(dev, 5n, key);
    expect(retry.statusCode).toBe(200);
    expect(retry.json().tx_hash).toBe(first.json().tx_hash);
    expect(await s.salesOf(dev.walletAddress as string)).toHaveLength(1);
  });

  it('puts a mined sponsored sale that a reorg took back on the chain again, and the next agent is not wedged', async () => {
    const a = await s.holder(40n);
    const b = await s.holder(40n);
    const snapshot = await tc.test.snapshot();
    const sold = await sell(a, 10n);
    expect(sold.statusCode, sold.body).toBe(200);
    // The block with the sale is gone; the database still says it is done.
    await tc.test.revert({ id: snapshot });
    expect(await s.salesOf(a.walletAddress as string)).toHaveLength(0);
    const started = Date.now();
    const next = await sell(b, 10n);
    expect([200, 202]).toContain(next.statusCode);
    await settle(async () => (await s.salesOf(b.walletAddress as string)).length === 1, 10_000);
    expect(Date.now() - started).toBeLessThan(10_000);
    // The first sale is back on the chain from its own bytes: executed once, not twice.
    await settle(async () => (await s.salesOf(a.walletAddress as string)).length === 1, 10_000);
    expect(await s.salesOf(a.walletAddress as string)).toEqual([
      { tokensIn: 10n * TOKEN, txHash: sold.json().tx_hash },
    ]);
  });

  it('puts back a sale the engine had already seen final when a deeper reorg takes it, so the sponsor is not wedged', async () => {
    const a = await s.holder(40n);
    const b = await s.holder(40n);
    const snapshot = await tc.test.snapshot();
    const sold = await sell(a, 10n);
    expect(sold.statusCode, sold.body).toBe(200);
    // The engine sees it mined and final (PAYOUT_CONFIRMATIONS is 0 here) before the reorg.
    s.ctx.clock.advance(5_000);
    await engine();
    await tc.test.revert({ id: snapshot });
    await tc.test.mine({ blocks: 5 });
    expect(await s.salesOf(a.walletAddress as string)).toHaveLength(0);
    const next = await sell(b, 10n);
    expect([200, 202]).toContain(next.statusCode);
    await settle(async () => (await s.salesOf(b.walletAddress as string)).length === 1, 10_000);
    await settle(async () => (await s.salesOf(a.walletAddress as string)).length === 1, 10_000);
    expect(await s.salesOf(a.walletAddress as string)).toEqual([
      { tokensIn: 10n * TOKEN, txHash: sold.json().tx_hash },
    ]);
  });

  it('replaces a sponsored sale stuck behind a fee spike at its nonce, and it executes once', async () => {
    const dev = await s.holder(50n);
    await tc.test.setAutomine(false);
    const first = await sell(dev, 5n);
    expect(first.statusCode, first.body).toBe(202);
    const id = first.json().transaction.id as string;
    // The base fee jumps far above what the sale offered: it cannot be included.
    const base = (await tc.pub.getBlock()).baseFeePerGas as bigint;
    await tc.test.request({
      method: 'anvil_setNextBlockBaseFeePerGas' as never,
      params: [`0x${(base * 50n).toString(16)}`] as never,
    });
    await tc.test.mine({ blocks: 1 });
    expect(
      await tc.pub.getTransactionReceipt({ hash: first.json().tx_hash as Hex }).catch(() => null),
    ).toBeNull();
    // Past PAYOUT_STUCK_AFTER_SECONDS the engine signs it again at the same nonce, paying more.
    s.ctx.clock.advance(10_000);
    await engine();
    await tc.test.mine({ blocks: 1 });
    await tc.test.setAutomine(true);
    await settle(async () => (await transaction(dev, id)).status !== 'pending');
    const t = await transaction(dev, id);
    expect(t.status).toBe('confirmed');
    expect(t.tx_hash).not.toBe(first.json().tx_hash);
    expect(await s.salesOf(dev.walletAddress as string)).toEqual([
      { tokensIn: 5n * TOKEN, txHash: t.tx_hash },
    ]);
    // The holder authorized the sale again for the higher fees: the sponsor got its gas back.
    const receipt = await tc.pub.getTransactionReceipt({ hash: t.tx_hash as Hex });
    const [refund] = parseEventLogs({ abi: bondingCurveAbi, logs: receipt.logs, eventName: 'GasRefunded' });
    const paid = receipt.gasUsed * receipt.effectiveGasPrice;
    const back = (refund?.args as { gasFee: bigint } | undefined)?.gasFee ?? 0n;
    expect(back * 100n).toBeGreaterThanOrEqual(paid * 99n);
  });

  it('fails a sale its wallet can no longer pay for once the node holds none of it, and the wallet is not wedged', async () => {
    const dev = await s.holder(50n);
    const me = dev.walletAddress as Hex;
    await tc.test.setBalance({ address: me, value: 10n ** 17n });
    await tc.test.setAutomine(false);
    const first = await sell(dev, 5n);
    expect(first.statusCode, first.body).toBe(202);
    const id = first.json().transaction.id as string;
    expect(first.json().transaction.kind).toBe('sell');
    // The node forgets it, and the wallet's ETH is gone: its bytes can never be paid for again.
    await tc.test.dropTransaction({ hash: first.json().tx_hash as Hex });
    await tc.test.setBalance({ address: me, value: 0n });
    await tc.test.setAutomine(true);
    await settle(async () => (await transaction(dev, id)).status !== 'pending');
    const t = await transaction(dev, id);
    expect(t).toMatchObject({ status: 'failed' });
    expect((t as unknown as { error: { code: string } }).error.code).toBe('insufficient_eth');
    expect(await s.salesOf(me)).toHaveLength(0);
    // Its nonce went back: the next sale (sponsored now) goes through, and then one with ETH again.
    const next = await sell(dev, 10n);
    expect(next.statusCode, next.body).toBe(200);
    await tc.test.setBalance({ address: me, value: 10n ** 17n });
    const own = await sell(dev, 5n);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().sponsored).toBe(false);
    expect(await s.salesOf(me)).toHaveLength(2);
  });

  // CI seed 404523450 (wallets-interleave): a withdraw answered 200 was taken back by a reorg with
  // the sale whose proceeds had paid its gas; sent again, the node refused it for want of ETH and
  // the engine failed it: a request answered 200 never executed.
  it('keeps a confirmed withdraw a reorg took back pending while its wallet cannot pay, then executes it once', async () => {
    const dev = await s.holder(30n);
    const me = dev.walletAddress as Hex;
    const to = randomAddress();
    await tc.test.setBalance({ address: me, value: 10n ** 17n });
    const snapshot = await tc.test.snapshot();
    const sent = await withdraw(dev, to, 10n);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().sponsored).toBe(false);
    const listed = await s.ctx.app.inject({
      url: '/api/agents/me/wallet/transactions',
      headers: dev.headers,
    });
    const mine = (listed.json().transactions as { id: string; tx_hash: string }[]).find(
      (t) => t.tx_hash === sent.json().tx_hash,
    );
    const id = mine?.id as string;
    expect((await transaction(dev, id)).status).toBe('confirmed');
    // The block is gone, and so is the ETH that paid for the withdraw's gas.
    await tc.test.revert({ id: snapshot });
    await tc.test.setBalance({ address: me, value: 0n });
    expect(await s.movedFrom(me)).toHaveLength(0);
    const warn = vi.spyOn(s.ctx.app.log, 'warn');
    for (let i = 0; i < 3; i++) {
      s.ctx.clock.advance(5_000);
      await engine();
    }
    expect((await transaction(dev, id)).status).toBe('pending');
    // Said once a minute, not on every pass.
    const waits = warn.mock.calls.filter((c) => c.some((a) => typeof a === 'string' && /it waits$/.test(a)));
    expect(waits).toHaveLength(1);
    warn.mockRestore();
    expect(await s.movedFrom(me)).toHaveLength(0);
    // The wallet can pay again (the sale that funded it mined again): the same bytes execute, once.
    await tc.test.setBalance({ address: me, value: 10n ** 17n });
    await settle(async () => (await transaction(dev, id)).status !== 'pending');
    expect(await transaction(dev, id)).toMatchObject({ status: 'confirmed', tx_hash: sent.json().tx_hash });
    expect(await s.movedFrom(me)).toEqual([
      {
        to: expect.stringMatching(new RegExp(to.slice(2), 'i')),
        value: 10n * TOKEN,
        txHash: sent.json().tx_hash,
      },
    ]);
    expect(await eventsOf(dev, 'wallet.tx_failed')).toHaveLength(0);
  });

  // CI seed 1451258204 (wallets-interleave): a filler at the same nonce and fees has the same bytes
  // as one the node refused before, and inserting it again failed every pass, so the wallet stayed
  // with its counter ahead of the chain for good.
  it('gives back nonces nothing waits behind, and opens a refused filler again instead of inserting it twice', async () => {
    const dev = await s.holder(50n);
    const me = (dev.walletAddress as Hex).toLowerCase();
    await tc.test.setBalance({ address: dev.walletAddress as Hex, value: 10n ** 17n });
    const first = await sell(dev, 5n);
    expect(first.statusCode, first.body).toBe(200);
    const { db } = s.ctx.database;
    const chainCount = await tc.pub.getTransactionCount({
      address: dev.walletAddress as Hex,
      blockTag: 'pending',
    });
    // Its counter runs two ahead of the chain, nothing recorded at those nonces: a wallet without
    // ETH could never pay fillers there, and nothing waits behind them.
    await db
      .update(accountNonces)
      .set({ nextNonce: chainCount + 2 })
      .where(eq(accountNonces.address, me));
    await tc.test.setBalance({ address: dev.walletAddress as Hex, value: 0n });
    s.ctx.app.services.txEngine.nudge(me);
    await settle(async () => {
      const [row] = await db.select().from(accountNonces).where(eq(accountNonces.address, me));
      return row?.nextNonce === chainCount;
    });
    expect(
      await db
        .select()
        .from(walletTxs)
        .where(and(eq(walletTxs.signer, me), eq(walletTxs.kind, 'nonce_filler'))),
    ).toEqual([]);

    // A filler the node refused before is the same row as the one signed again at its nonce and
    // fees: recorded again, it is opened again (signed), never a second insert that fails.
    const [sale] = await db.select().from(walletTxs).where(eq(walletTxs.hash, first.json().tx_hash));
    const refused = {
      ...(sale as typeof walletTxs.$inferSelect),
      hash: `0x${'f1'.repeat(32)}`,
      nonce: 1_000_000,
      kind: 'nonce_filler',
      intentId: null,
      status: 'failed' as const,
    };
    await db.insert(walletTxs).values(refused);
    await insertOrReopenFiller(db, { ...refused, status: undefined, updatedAt: new Date() });
    const [again] = await db.select().from(walletTxs).where(eq(walletTxs.hash, refused.hash));
    expect(again?.status).toBe('signed');
    await db.delete(walletTxs).where(eq(walletTxs.hash, refused.hash));
  });

  it('holds a quota of 1 across two instances: two concurrent sponsored withdraws move tokens once', async () => {
    const dev = await s.holder(30n);
    const other = await s.instance();
    const to = randomAddress();
    const answers = await Promise.all([withdraw(dev, to, 5n), withdraw(dev, to, 5n, undefined, other.app)]);
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes, answers.map((r) => r.body).join('\n')).toEqual([200, 400]);
    expect(await s.movedFrom(dev.walletAddress as string)).toHaveLength(1);
  });

  it('never lets a sale and a withdraw of the same tokens on two instances both reach the sponsor', async () => {
    const dev = await s.holder(20n);
    const other = await s.instance();
    const sponsor = tc.chain.sponsor.address as string;
    const before = await tc.pub.getTransactionCount({ address: sponsor as Hex });
    // The instances' clocks disagree by an hour: the wallet's lease lapses by the database's clock,
    // so the one whose clock runs ahead never takes a lease the other still holds.
    s.ctx.clock.advance(3_600_000);
    // Each broadcast reaches the node late: an action running beside another would pass its dry run.
    s.proxy.set({ beforeSend: () => sleep(700) });
    const answers = await Promise.all([
      withdraw(dev, randomAddress(), 20n, undefined, other.app),
      sell(dev, 20n),
    ]);
    expect(
      answers.filter((r) => r.statusCode === 200),
      answers.map((r) => r.body).join('\n'),
    ).toHaveLength(1);
    const after = await tc.pub.getTransactionCount({ address: sponsor as Hex });
    // One sponsor transaction, and it succeeded: the refused one was caught by its dry run.
    expect(after - before).toBe(1);
    expect(await s.movedFrom(dev.walletAddress as string)).toHaveLength(1);
  });

  it('shows an agent its own transactions only', async () => {
    const dev = await s.holder(20n);
    const sold = await sell(dev, 10n);
    expect(sold.statusCode, sold.body).toBe(200);
    const list = await s.ctx.app.inject({
      method: 'GET',
      url: '/api/agents/me/wallet/transactions',
      headers: dev.headers,
    });
    const [latest] = list.json().transactions;
    expect(latest).toMatchObject({ status: 'confirmed', tx_hash: sold.json().tx_hash });
    const stranger = await s.holder(1n);
    const peek = await s.ctx.app.inject({
      method: 'GET',
      url: `/api/agents/me/wallet/transactions/${latest.id}`,
      headers: stranger.headers,
    });
    expectError(peek, 404, 'not_found');
  });
});
