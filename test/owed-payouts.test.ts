import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { OwedPayoutState, RevertedLeg } from '../src/modules/reviews/owed.repo.ts';
import { OwedPayouts, waitsAfterReverts } from '../src/modules/reviews/owed-payouts.ts';
import { TestClock } from './helpers/clock.ts';

const SECOND = 1_000;
const HOUR = 3_600 * SECOND;
const failedAt = new Date('2026-01-01T00:00:00Z');
const later = (ms: number) => new Date(failedAt.getTime() + ms);
const UNIT = 10n ** 18n;

/** A payout transaction that reverted in `block`, recorded `ago` ms before `failedAt`. */
function reverted(legId: string, over: Partial<RevertedLeg> = {}): RevertedLeg {
  return {
    legId,
    tokenAddress: '0x00000000000000000000000000000000000000aa',
    fromAddress: '0x00000000000000000000000000000000000000f0',
    units: 100n * UNIT,
    blockNumber: 100n,
    revertedAt: failedAt,
    ...over,
  };
}

/** `n` reverted transactions, the latest recorded at `failedAt`, each earlier one a minute before. */
const reverts = (n: number): RevertedLeg[] =>
  Array.from({ length: n }, (_, i) =>
    reverted(`leg_${i}`, {
      blockNumber: BigInt(100 + i),
      revertedAt: later(-(n - 1 - i) * 60 * SECOND),
    }),
  );

/** An owed submission whose payout failed after one revert recorded at `failedAt`. */
function owed(over: Partial<OwedPayoutState> = {}): OwedPayoutState {
  return {
    submissionId: 'sub_1',
    bountyId: 'bnt_1',
    projectId: 'prj_1',
    founderId: 'agt_founder',
    contributorId: 'agt_dev',
    prUrl: 'https://example.test/o/r/pull/1',
    payoutStatus: 'failed',
    reverted: reverts(1),
    ...over,
  };
}

describe('waitsAfterReverts', () => {
  it('never waits for a payout that never reverted (funds, wallets: tried every pass)', () => {
    const o = owed({ reverted: [] });
    expect(waitsAfterReverts(o, failedAt)).toBe(false);
    expect(waitsAfterReverts(o, later(1))).toBe(false);
  });

  it('waits 30 s after a revert the founder funds do not explain', () => {
    const o = owed({ reverted: reverts(1) });
    expect(waitsAfterReverts(o, failedAt)).toBe(true);
    expect(waitsAfterReverts(o, later(30 * SECOND - 1))).toBe(true);
    expect(waitsAfterReverts(o, later(30 * SECOND))).toBe(false);
    expect(waitsAfterReverts(o, later(HOUR))).toBe(false);
  });

  it('doubles the wait with each unexplained revert: 60 s after two, 120 s after three', () => {
    expect(waitsAfterReverts(owed({ reverted: reverts(2) }), later(60 * SECOND - 1))).toBe(true);
    expect(waitsAfterReverts(owed({ reverted: reverts(2) }), later(60 * SECOND))).toBe(false);
    const three = owed({ reverted: reverts(3) });
    expect(waitsAfterReverts(three, later(30 * SECOND))).toBe(true);
    expect(waitsAfterReverts(three, later(120 * SECOND - 1))).toBe(true);
    expect(waitsAfterReverts(three, later(120 * SECOND))).toBe(false);
  });

  it('waits at most an hour, however many times the payout reverted', () => {
    // 30 s * 2^7 = 64 min: past the cap already.
    for (const n of [8, 20, 200]) {
      const o = owed({ reverted: reverts(n) });
      expect(waitsAfterReverts(o, later(HOUR - 1))).toBe(true);
      expect(waitsAfterReverts(o, later(HOUR))).toBe(false);
    }
    // 30 s * 2^6 = 32 min: still under it.
    expect(waitsAfterReverts(owed({ reverted: reverts(7) }), later(32 * 60 * SECOND - 1))).toBe(true);
    expect(waitsAfterReverts(owed({ reverted: reverts(7) }), later(32 * 60 * SECOND))).toBe(false);
  });

  it('never waits for a payout that is not failed (reopened, in flight, paid) or has no payout row', () => {
    for (const payoutStatus of ['pending', 'confirmed', null]) {
      expect(waitsAfterReverts(owed({ reverted: reverts(3), payoutStatus }), failedAt)).toBe(false);
    }
  });

  it("never waits after a revert the founder's funds explain (balance or allowance short at its block)", () => {
    const o = owed({ reverted: reverts(1) });
    expect(waitsAfterReverts(o, failedAt, new Set(['leg_0']))).toBe(false);
    // Explained earlier reverts do not count: one unexplained revert after three explained ones
    // waits 30 s, not 2 min.
    const four = owed({ reverted: reverts(4) });
    const explained = new Set(['leg_0', 'leg_1', 'leg_2']);
    expect(waitsAfterReverts(four, later(30 * SECOND - 1), explained)).toBe(true);
    expect(waitsAfterReverts(four, later(30 * SECOND), explained)).toBe(false);
    // An explained latest revert: tried now, whatever reverted before it.
    expect(waitsAfterReverts(four, failedAt, new Set(['leg_3']))).toBe(false);
  });

  it('counts the wait from the revert: a retry the funds check refused later never restarts it', () => {
    // The payout row changed 25 s after the revert (reopened by a retry, then failed again by the
    // funds reservation, nothing signed): the revert's 30 s still end 30 s after the revert.
    const o = { ...owed({ reverted: reverts(1) }), payoutUpdatedAt: later(25 * SECOND) };
    expect(waitsAfterReverts(o, later(29 * SECOND))).toBe(true);
    expect(waitsAfterReverts(o, later(30 * SECOND))).toBe(false);
  });
});

describe('OwedPayouts', () => {
  const log = { warn() {}, error() {} } as unknown as FastifyBaseLogger;

  /** The job over `states`, approving everything; `shortAt` says which (leg) blocks lacked funds. */
  function job(states: OwedPayoutState[], shortAt: (block: bigint) => boolean | Error) {
    const clock = new TestClock(failedAt.getTime());
    const approved: string[] = [];
    const reads: string[] = [];
    const owedJob = new OwedPayouts({
      log,
      clock,
      merges: { owed: async () => states, recordPayoutFailure: async () => false },
      approvals: {
        approve: async (_founder, bountyId, _notes, opts) => {
          const submissionId = opts?.submissionId as string;
          approved.push(submissionId);
          const hash = `0x${'ab'.repeat(32)}`;
          return {
            bounty_id: bountyId,
            status: 'done' as const,
            submission_id: submissionId,
            contributor_tx_hash: hash,
            platform_fee_tx_hash: hash,
          };
        },
      },
      funds: {
        coveredAt: async (_token, _from, units, block) => {
          reads.push(`${block}:${units}`);
          const short = shortAt(block);
          if (short instanceof Error) throw short;
          return !short;
        },
      },
    });
    const pass = async () => {
      approved.length = 0;
      await owedJob.run();
      return [...approved];
    };
    return { clock, pass, reads };
  }

  it('skips an owed payout while it waits after unexplained reverts and approves the others', async () => {
    const { clock, pass } = job(
      [
        owed({ submissionId: 'waits', bountyId: 'bnt_waits', reverted: reverts(2) }),
        owed({ submissionId: 'funds', bountyId: 'bnt_funds', reverted: [] }),
        owed({ submissionId: 'fresh', bountyId: 'bnt_fresh', reverted: [], payoutStatus: null }),
      ],
      () => false,
    );
    expect(await pass()).toEqual(['funds', 'fresh']);
    // Two reverts: tried again 60 s after the latest.
    clock.advance(60 * SECOND - 1);
    expect(await pass()).toEqual(['funds', 'fresh']);
    clock.advance(1);
    expect(await pass()).toEqual(['waits', 'funds', 'fresh']);
  });

  it("tries at once a payout whose revert the founder's funds explain, reading them at the revert's block once", async () => {
    const { pass, reads } = job(
      [
        // Reverted in block 200, where the founder's allowance was below the reward.
        owed({
          submissionId: 'allowance',
          bountyId: 'bnt_allowance',
          reverted: [reverted('leg_a', { blockNumber: 200n })],
        }),
        // Reverted in block 300 with funds that covered it: the token refused, it waits.
        owed({
          submissionId: 'token',
          bountyId: 'bnt_token',
          reverted: [reverted('leg_t', { blockNumber: 300n })],
        }),
      ],
      (block) => block === 200n,
    );
    expect(await pass()).toEqual(['allowance']);
    expect(reads).toEqual([`200:${100n * UNIT}`, `300:${100n * UNIT}`]);
    // What a block held never changes: not read again.
    expect(await pass()).toEqual(['allowance']);
    expect(reads).toHaveLength(2);
  });

  it('backs off when the funds at the revert cannot be read (or the revert lost its block), and reads again later', async () => {
    let down = true;
    const { pass, reads } = job(
      [
        owed({ submissionId: 'unread', bountyId: 'bnt_unread', reverted: [reverted('leg_u')] }),
        owed({
          submissionId: 'reorged',
          bountyId: 'bnt_reorged',
          reverted: [reverted('leg_r', { blockNumber: null })],
        }),
      ],
      () => (down ? new Error('missing trie node') : true),
    );
    expect(await pass()).toEqual([]);
    expect(reads).toHaveLength(1);
    down = false;
    expect(await pass()).toEqual(['unread']);
    expect(reads).toHaveLength(2);
  });
});
