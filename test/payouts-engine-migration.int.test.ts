import { pino } from 'pino';
import { encodeFunctionData, getAddress, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payoutRouterAbi } from '../src/infra/chain/contracts/PayoutRouter.ts';
import { TransactionEngine } from '../src/modules/transactions/engine.ts';
import { TestClock } from './helpers/clock.ts';
import { MIGRATIONS, type MigrationDb, migrationDb } from './helpers/migration-db.ts';

/**
 * Migration 0017 (payouts on the engine, issue 25) on a database that holds payouts of the old
 * payout-only ledger: each leg becomes an intent of the payout key (its id kept), each attempt a
 * transaction of the engine, the payout key's counter moves to account_nonces, and the service's
 * start-up reads each moved leg's call back from its signed bytes. Nothing is lost: a paid leg is
 * confirmed with its hash and block, a leg in flight stays pending with its bytes, a reverted or
 * dropped one failed, and the old tables are gone. On PGlite, and on PostgreSQL when the suite
 * runs there.
 */

const KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d' as Hex;
const payoutKey = privateKeyToAccount(KEY);
const ROUTER = '0x00000000000000000000000000000000000000D1';
const TOKEN = '0x00000000000000000000000000000000000000E1';
const FOUNDER = '0x00000000000000000000000000000000000000F1';
const DEV = '0x00000000000000000000000000000000000000A2';

/** A router pay signed by the payout key at `nonce`, as the old ledger stored it. */
async function signedPay(nonce: number, fee: bigint) {
  const data = encodeFunctionData({
    abi: payoutRouterAbi,
    functionName: 'pay',
    args: [getAddress(TOKEN), getAddress(FOUNDER), getAddress(DEV), 95n, 5n],
  });
  const raw = await payoutKey.signTransaction({
    chainId: 31337,
    type: 'eip1559',
    to: getAddress(ROUTER),
    data,
    gas: 200_000n,
    nonce,
    maxFeePerGas: fee,
    maxPriorityFeePerGas: 1n,
  });
  return { raw, data };
}

describe('migration 0017_payouts_on_the_engine', () => {
  let m: MigrationDb;
  beforeAll(async () => {
    m = await migrationDb('payouts-engine-');
  });
  afterAll(async () => {
    await m?.close();
  });

  it('moves every leg, attempt and counter, keeps what each did, and reads calls back from the bytes', async () => {
    const { query, db } = m;
    await m.migrateTo(m.upTo('0017_payouts_on_the_engine'));
    // The payouts' submissions and bounties are not what this migration moves: checks off.
    await query(`set session_replication_role = replica`);
    const payout = (id: string, status: string) =>
      query(
        `insert into payouts (id, submission_id, bounty_id, token_address, from_address, contributor_address,
           treasury_address, reward_units, contributor_units, fee_units, status, created_at, updated_at)
         values ($1, $2, $3, $4, $5, $6, $7, 100, 95, 5, $8, now(), now())`,
        [id, `sub_${id}`, `bty_${id}`, TOKEN, FOUNDER, DEV, ROUTER, status],
      );
    await payout('po_paid', 'confirmed');
    await payout('po_flight', 'pending');
    await payout('po_legacy', 'confirmed');
    const leg = (
      id: string,
      p: string,
      kind: string,
      nonce: number,
      status: string,
      hash: string | null,
      block: number | null,
    ) =>
      query(
        `insert into payout_legs (id, payout_id, kind, signer, nonce, to_address, amount_units, status, tx_hash,
           block_number, created_at, updated_at)
         values ($1, $2, $3, $4, $5, $6, 95, $7, $8, $9, now() - interval '2 hours', now() - interval '2 hours')`,
        [id, p, kind, payoutKey.address, nonce, DEV, status, hash, block],
      );
    const attempt = (hash: string, legId: string, raw: string, fee: number, sent: boolean) =>
      query(
        `insert into leg_attempts (tx_hash, leg_id, raw_tx, max_fee_per_gas, max_priority_fee_per_gas,
           created_at, broadcast_at)
         values ($1, $2, $3, $4, 1, now() - interval '2 hours', ${sent ? 'now()' : 'null'})`,
        [hash, legId, raw, fee],
      );
    const inFlight = await signedPay(3, 7n);
    await leg('leg_paid', 'po_paid', 'payout', 0, 'success', '0xb1', 10);
    await attempt('0xa0', 'leg_paid', '0x00', 1, true);
    await attempt('0xb1', 'leg_paid', '0x01', 2, true);
    await leg('leg_flight', 'po_flight', 'payout', 3, 'sent', null, null);
    await attempt('0xc3', 'leg_flight', inFlight.raw, 7, true);
    await leg('leg_dropped', 'po_legacy', 'contributor', 1, 'dropped', null, null);
    await attempt('0xd1', 'leg_dropped', '0x02', 1, true);
    await leg('leg_paid_again', 'po_legacy', 'contributor', 4, 'success', '0xd4', 14);
    await attempt('0xd4', 'leg_paid_again', '0x03', 1, true);
    await leg('leg_fee', 'po_legacy', 'fee', 2, 'reverted', '0xe2', 12);
    await attempt('0xe2', 'leg_fee', '0x04', 1, true);
    await query(`insert into signer_nonces (address, next_nonce) values ($1, 7)`, [payoutKey.address]);
    await query(`set session_replication_role = origin`);

    await m.migrateTo(MIGRATIONS);

    const intents = await query(
      `select id, payout_id, agent_id, kind, signer, nonce::int as nonce, status, tx_hash, block_number::text as block,
              error_code, final, data from wallet_intents order by id`,
    );
    const signer = payoutKey.address.toLowerCase();
    expect(intents).toEqual([
      expect.objectContaining({
        id: 'leg_dropped',
        kind: 'payout_contributor',
        status: 'failed',
        error_code: 'upstream_error',
      }),
      expect.objectContaining({
        id: 'leg_fee',
        kind: 'payout_fee',
        status: 'failed',
        tx_hash: '0xe2',
        block: '12',
      }),
      expect.objectContaining({
        id: 'leg_flight',
        kind: 'payout',
        status: 'pending',
        final: false,
        data: '',
      }),
      expect.objectContaining({
        id: 'leg_paid',
        payout_id: 'po_paid',
        agent_id: null,
        kind: 'payout',
        signer,
        nonce: 0,
      }),
      expect.objectContaining({
        id: 'leg_paid_again',
        status: 'confirmed',
        tx_hash: '0xd4',
        block: '14',
        final: true,
      }),
    ]);
    expect(intents.find((i) => i.id === 'leg_paid')).toMatchObject({
      status: 'confirmed',
      tx_hash: '0xb1',
      final: true,
    });
    const txs = await query(
      `select hash, intent_id, signer, nonce::int as nonce, status, raw from wallet_txs order by hash`,
    );
    expect(txs.map((t) => [t.hash, t.intent_id, t.status])).toEqual([
      ['0xa0', 'leg_paid', 'replaced'],
      ['0xb1', 'leg_paid', 'mined'],
      ['0xc3', 'leg_flight', 'sent'],
      ['0xd1', 'leg_dropped', 'dropped'],
      ['0xd4', 'leg_paid_again', 'mined'],
      ['0xe2', 'leg_fee', 'reverted'],
    ]);
    expect(txs.every((t) => t.signer === signer)).toBe(true);
    expect(txs.find((t) => t.hash === '0xc3')).toMatchObject({ nonce: 3, raw: inFlight.raw });
    expect(await query(`select address, next_nonce::int as next from account_nonces`)).toEqual([
      { address: signer, next: 7 },
    ]);
    const left = await query(
      `select table_name from information_schema.tables
        where table_name in ('payout_legs', 'leg_attempts', 'signer_nonces')`,
    );
    expect(left).toEqual([]);

    // Start-up: the leg in flight gets its call back from its bytes, so the engine can replace it.
    const engine = new TransactionEngine({
      db,
      clock: new TestClock(),
      log: pino({ level: 'silent' }),
      journal: {} as never,
      chain: {} as never,
      kinds: () => ({}),
      keyOf: async () => undefined,
      confirmations: 0,
      stuckAfterMs: 60_000,
      maxFeePerGas: 10n ** 12n,
    });
    await engine.backfillCalls();
    const [flight] = await query(
      `select to_address, data, gas::text as gas, value_units::text as value from wallet_intents where id = 'leg_flight'`,
    );
    expect(flight).toEqual({
      to_address: ROUTER.toLowerCase(),
      data: inFlight.data,
      gas: '200000',
      value: '0',
    });
  });
});
