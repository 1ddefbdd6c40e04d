import { eq, inArray } from 'drizzle-orm';
import { getAddress, type Hex, keccak256, parseTransaction } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anvilAccount } from '../src/infra/chain/anvil.ts';
import { walletTxs } from '../src/infra/db/schema.ts';
import type { EngineDeps } from '../src/modules/transactions/engine.deps.ts';
import { TransactionEngine } from '../src/modules/transactions/engine.ts';
import { EngineReorgs } from '../src/modules/transactions/engine-reorg.ts';
import { TransactionSigning } from '../src/modules/transactions/engine-signing.ts';
import { TransactionJournal } from '../src/modules/transactions/journal.ts';
import { buildTestApp, registerAgent, type TestContext } from './helpers/app.ts';
import { startTestChain, type TestChain } from './helpers/chain.ts';
import { ethBalance } from './helpers/wallets.ts';

/**
 * The wallet journal on a real chain: nonces of one account taken by several instances at once,
 * a transaction recorded and never sent (a crash) sent again from its stored bytes, and a nonce a
 * node forgot filled before later ones.
 */
describe('wallet journal', () => {
  let tc: TestChain;
  let ctx: TestContext;
  let agentId: string;
  // An account of its own (index 11 of anvil's mnemonic, funded here): no other file signs with it.
  const account = anvilAccount(11);
  const key = account.getHdKey().privateKey as Uint8Array;
  const keyHex = `0x${Buffer.from(key).toString('hex')}` as Hex;
  const signer = privateKeyToAccount(keyHex);
  const DEAD = '0x000000000000000000000000000000000000dEaD';
  const unsigned = {
    to: DEAD,
    data: '0x',
    valueUnits: 1n,
    gas: 21_000n,
    maxFeePerGas: 10n ** 9n,
    maxPriorityFeePerGas: 10n ** 6n,
  };

  const journal = () =>
    new TransactionJournal({
      db: ctx.database.db,
      clock: ctx.clock,
      chain: tc.chain,
      activity: ctx.app.services.activity,
      kinds: () => ({ withdraw_eth: {} }),
      waitMs: 5_000,
    });
  /**
   * The engine that follows the journal's records, signing again with the account's own key; with
   * `nonceTaken: 'fail'`, a request whose nonce another transaction took fails (as a payout does).
   */
  const engineDeps = (nonceTaken?: 'fail'): EngineDeps => ({
    db: ctx.database.db,
    clock: ctx.clock,
    log: ctx.app.log,
    chain: tc.chain,
    journal: journal(),
    kinds: () => ({ withdraw_eth: nonceTaken ? { nonceTaken } : {} }),
    keyOf: async (address) => (address.toLowerCase() === signer.address.toLowerCase() ? keyHex : undefined),
    confirmations: 0,
    stuckAfterMs: 3_600_000,
    maxFeePerGas: 10n ** 12n,
  });
  const engine = (nonceTaken?: 'fail') => new TransactionEngine(engineDeps(nonceTaken));
  /** A 1-wei transfer from the account, signed at `nonce`, as the service signs one. */
  const sign = async (nonce: number, to = '0x000000000000000000000000000000000000dEaD') => {
    const raw = await signer.signTransaction({
      chainId: tc.chain.info.id,
      type: 'eip1559',
      to: getAddress(to),
      value: 1n,
      gas: 21_000n,
      maxFeePerGas: 10n ** 9n,
      maxPriorityFeePerGas: 10n ** 6n,
      nonce,
    });
    return { raw, hash: keccak256(raw) };
  };
  const record = (j = journal()) =>
    j
      .for({ kind: 'withdraw_eth', agentId, projectId: null, holder: signer.address, requestKey: null })
      .record(
        signer.address,
        () => tc.chain.wallets.nonceOf(signer.address, 'pending'),
        (nonce) => sign(nonce),
        unsigned,
      );
  /** A request recorded, sent, mined and seen final by `e` (after its earlier leftovers settled). */
  const minedAndFinal = async (e: TransactionEngine) => {
    const sent = await record();
    expect(await tc.chain.wallets.broadcast(sent.raw)).toBe('accepted');
    await tc.pub.waitForTransactionReceipt({ hash: sent.hash as Hex });
    ctx.clock.advance(60_000);
    await e.run(); // settles it
    await e.run(); // sees it final
    return sent;
  };
  /** How many receipts `body` looked up. */
  const lookupsDuring = async (body: () => Promise<unknown>) => {
    const receipt = tc.chain.wallets.receipt;
    let lookups = 0;
    tc.chain.wallets.receipt = (hash) => {
      lookups += 1;
      return receipt(hash);
    };
    try {
      await body();
    } finally {
      tc.chain.wallets.receipt = receipt;
    }
    return lookups;
  };
  /**
   * A request `e` saw final (after `seenFinal`), its block then taken by a reorg deeper than the
   * confirmations and its nonce used by another transaction the key signed outside the service.
   */
  const finalThenNonceTakenOutside = async (
    e: TransactionEngine,
    seenFinal?: (sent: { hash: string }) => Promise<void>,
  ) => {
    // What the tests before left recorded and unsent is sent and settled first.
    ctx.clock.advance(60_000);
    await e.run();
    ctx.clock.advance(60_000);
    await e.run();
    const before = await tc.test.snapshot();
    const gone = await minedAndFinal(e);
    await seenFinal?.(gone);
    await tc.test.revert({ id: before });
    const outside = await sign(
      parseTransaction(gone.raw as Hex).nonce ?? -1,
      '0x000000000000000000000000000000000000bEEF',
    );
    expect(await tc.chain.wallets.broadcast(outside.raw)).toBe('accepted');
    await tc.pub.waitForTransactionReceipt({ hash: outside.hash });
    expect(await tc.chain.wallets.receipt(gone.hash)).toBeNull();
    return gone;
  };
  /** The next passes put the request back and fail it: its nonce went elsewhere, it moved nothing. */
  const failedByNextPasses = async (e: TransactionEngine, gone: { hash: string }) => {
    for (let i = 0; i < 3; i++) {
      ctx.clock.advance(60_000);
      await e.run();
    }
    expect(await attemptStatus(gone.hash)).toBe('dropped');
    const [failed] = await journal().list(agentId, 1);
    expect(failed).toMatchObject({ status: 'failed' });
  };
  const nonceOf = async (hash: string) => (await tc.pub.getTransaction({ hash: hash as Hex })).nonce;
  const attemptStatus = async (hash: string) =>
    (
      await ctx.database.db
        .select({ status: walletTxs.status })
        .from(walletTxs)
        .where(eq(walletTxs.hash, hash.toLowerCase()))
    )[0]?.status;

  beforeAll(async () => {
    tc = await startTestChain();
    ctx = await buildTestApp({ chain: tc.chain });
    agentId = (await registerAgent(ctx.app)).id;
    await tc.test.setBalance({ address: signer.address, value: 10n ** 18n });
  });
  afterAll(async () => {
    await ctx?.close();
    await tc?.stop();
  });

  it('gives concurrent records of one account, from several journals, distinct consecutive nonces', async () => {
    const start = await tc.chain.wallets.nonceOf(signer.address, 'pending');
    const signed = await Promise.all(
      Array.from({ length: 8 }, (_, i) => record(i % 2 ? journal() : undefined)),
    );
    for (const s of signed) expect(await tc.chain.wallets.broadcast(s.raw)).toBe('accepted');
    const nonces = await Promise.all(signed.map((s) => nonceOf(s.hash)));
    expect([...nonces].sort((a, b) => a - b)).toEqual(Array.from({ length: 8 }, (_, i) => start + i));
  });

  it('sends a transaction recorded before a crash from its stored bytes, once', async () => {
    // The records above were sent by hand, never told their receipts: the engine settles them first.
    ctx.clock.advance(60_000);
    await engine().run();
    const before = await ethBalance(tc, DEAD);
    const lost = await record();
    // Nothing was sent (the process died here); the engine leaves fresh records to their request.
    expect(await engine().run()).toBe(0);
    ctx.clock.advance(60_000);
    expect(await engine().run()).toBe(1);
    const receipt = await tc.pub.waitForTransactionReceipt({ hash: lost.hash as Hex });
    expect(receipt.status).toBe('success');
    ctx.clock.advance(60_000);
    await engine().run();
    expect(await ethBalance(tc, DEAD)).toBe(before + 1n);
    // Settled once: the request is confirmed with that hash.
    const [intent] = await journal().list(agentId, 1);
    expect(intent).toMatchObject({ status: 'confirmed', txHash: lost.hash });
  });

  it('fills a nonce the node forgot before later transactions, so none is stuck', async () => {
    await tc.test.setAutomine(false);
    try {
      const first = await record();
      await tc.chain.wallets.broadcast(first.raw);
      await tc.test.dropTransaction({ hash: first.hash as Hex });
      // The record still holds its nonce: the next one goes after it, and the engine sends it again.
      const second = await record();
      await tc.chain.wallets.broadcast(second.raw);
      ctx.clock.advance(60_000);
      await engine().run();
      await tc.test.mine({ blocks: 1 });
      for (const s of [first, second]) {
        expect((await tc.pub.getTransactionReceipt({ hash: s.hash as Hex })).status).toBe('success');
      }
    } finally {
      await tc.test.setAutomine(true);
    }
  });

  // wallets-interleave, seed 1941262689: the node's answer to a payout's broadcast came 4 s late,
  // after another instance had dropped that attempt (the key used outside at its nonce); the late
  // answer marked it sent again, and it stayed open under a failed request for good.
  it('keeps an attempt settled when the answer to its broadcast comes after it was settled', async () => {
    const j = journal();
    const taken = await record(j);
    // The key signs another transaction at that nonce outside the service, and it mines first.
    const outside = await sign(
      parseTransaction(taken.raw as Hex).nonce ?? -1,
      '0x000000000000000000000000000000000000bEEF',
    );
    expect(await tc.chain.wallets.broadcast(outside.raw)).toBe('accepted');
    await tc.pub.waitForTransactionReceipt({ hash: outside.hash });
    ctx.clock.advance(60_000);
    await engine('fail').run();
    expect(await attemptStatus(taken.hash)).toBe('dropped');
    // The answer to the first broadcast, late: the attempt stays dropped and its request failed.
    await j.sent(taken.hash);
    expect(await attemptStatus(taken.hash)).toBe('dropped');
    const [failed] = await journal().list(agentId, 1);
    expect(failed).toMatchObject({ status: 'failed' });

    // The same for an attempt that mined before the answer came: it stays mined.
    const mined = await record(j);
    expect(await tc.chain.wallets.broadcast(mined.raw)).toBe('accepted');
    await tc.pub.waitForTransactionReceipt({ hash: mined.hash as Hex });
    ctx.clock.advance(60_000);
    await engine().run();
    expect(await attemptStatus(mined.hash)).toBe('mined');
    await j.sent(mined.hash);
    expect(await attemptStatus(mined.hash)).toBe('mined');
    // And a refusal that comes late (the node's answer to an earlier send of the same bytes)
    // neither fails it nor gives its nonce back.
    const handle = j.for({
      kind: 'withdraw_eth',
      agentId,
      projectId: null,
      holder: signer.address,
      requestKey: null,
    });
    await handle.refused(mined.hash, 'the node refused it: the signer cannot pay for it');
    expect(await attemptStatus(mined.hash)).toBe('mined');
    const [confirmed] = await journal().list(agentId, 1);
    expect(confirmed).toMatchObject({ status: 'confirmed', txHash: mined.hash });
    const next = await record(j);
    expect(parseTransaction(next.raw as Hex).nonce).toBe(
      (parseTransaction(mined.raw as Hex).nonce ?? -2) + 1,
    );
  });

  // wallets-interleave, seed 510894955: a payout confirmed and seen final, its block taken back by
  // a reorg deeper than PAYOUT_CONFIRMATIONS, its nonce then used outside the service before any
  // pass saw the signer's count behind: the payout stayed confirmed with nothing paid.
  it('puts back a request seen final whose block a deep reorg took, even once its nonce went to another transaction', async () => {
    const e = engine('fail');
    const gone = await finalThenNonceTakenOutside(e, async (sent) => {
      const [seenFinal] = await journal().list(agentId, 1);
      expect(seenFinal).toMatchObject({ status: 'confirmed', txHash: sent.hash });
      // A pass that finds the head it saw unchanged looks nothing up again.
      expect(await lookupsDuring(() => e.run())).toBe(0);
    });
    await failedByNextPasses(e, gone);
  });

  // The same reorg, and the node's answer to one of the recheck's lookups lost: the pass failed
  // halfway, the next found the head unchanged and looked nothing up, and the request stayed
  // confirmed with nothing paid.
  it('goes on with a recheck that a lost answer stopped halfway', async () => {
    const e = engine('fail');
    const gone = await finalThenNonceTakenOutside(e);
    const receipt = tc.chain.wallets.receipt;
    let lost = false;
    tc.chain.wallets.receipt = (hash) => {
      if (hash.toLowerCase() !== gone.hash.toLowerCase() || lost) return receipt(hash);
      lost = true;
      return Promise.reject(new Error('socket hang up'));
    };
    try {
      ctx.clock.advance(60_000);
      await e.run(); // logs the failure, and compares the signers all the same
    } finally {
      tc.chain.wallets.receipt = receipt;
    }
    expect(lost).toBe(true);
    expect(await attemptStatus(gone.hash)).toBe('mined');
    await failedByNextPasses(e, gone);
  });

  it('looks up every attempt settled before a reorg, however many, a page a pass', async () => {
    const e = engine();
    ctx.clock.advance(60_000);
    await e.run();
    const before = await tc.test.snapshot();
    const gone = [await minedAndFinal(e), await minedAndFinal(e), await minedAndFinal(e)];
    await tc.test.revert({ id: before });
    await tc.test.mine({ blocks: 1 });

    // Pages of one: a recheck that looked at only the first page (the newest 50, before) left the
    // rest of a busy quarter of an hour as final as it looked.
    const deps = engineDeps();
    const reorgs = new EngineReorgs(deps, new TransactionSigning(deps, async () => 0));
    const since = new Date(ctx.clock.now().getTime() - 15 * 60_000);
    const settled = await ctx.database.db
      .select({ hash: walletTxs.hash })
      .from(walletTxs)
      .where(inArray(walletTxs.status, ['mined', 'reverted']));
    const head = await tc.chain.wallets.headBlock();
    for (let i = 0; i <= settled.length; i++) await reorgs.recheckSettled(head, since, 1);
    for (const g of gone) expect(await attemptStatus(g.hash)).toBe('sent');
    // Its end reached, the recheck is over: with the head unchanged, nothing is looked up again.
    expect(await lookupsDuring(() => reorgs.recheckSettled(head, since, 1))).toBe(0);
    // Sent again from their bytes, they settle.
    for (const g of gone) await tc.pub.waitForTransactionReceipt({ hash: g.hash as Hex });
    ctx.clock.advance(60_000);
    await e.run();
    for (const g of gone) expect(await attemptStatus(g.hash)).toBe('mined');
  });

  // The same seed, once the payout was put back: a sponsored sale mined again after that reorg
  // kept the gas (and refund) of the block the reorg took.
  it('records the gas a transaction paid in the block a reorg mined it in again', async () => {
    const e = engine();
    ctx.clock.advance(60_000);
    await e.run();
    const before = await tc.test.snapshot();
    const again = await minedAndFinal(e);
    const gasOf = async () =>
      (
        await ctx.database.db
          .select({ gas: walletTxs.gasPaidUnits, block: walletTxs.blockNumber })
          .from(walletTxs)
          .where(eq(walletTxs.hash, again.hash.toLowerCase()))
      )[0];
    const first = await gasOf();

    // A reorg, and the same bytes mined again a block later, at another base fee.
    await tc.test.revert({ id: before });
    await tc.test.mine({ blocks: 1 });
    await tc.test.setNextBlockBaseFeePerGas({ baseFeePerGas: 1_000n });
    expect(await tc.chain.wallets.broadcast(again.raw)).toBe('accepted');
    const r = await tc.pub.waitForTransactionReceipt({ hash: again.hash as Hex });
    expect(r.gasUsed * r.effectiveGasPrice).not.toBe(first?.gas);

    ctx.clock.advance(60_000);
    await e.run();
    expect(await gasOf()).toEqual({ gas: r.gasUsed * r.effectiveGasPrice, block: r.blockNumber });
    expect(await attemptStatus(again.hash)).toBe('mined');
  });
});
