import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { OwedPayoutState } from '../src/modules/reviews/owed.repo.ts';
import { OwedPayouts, waitsAfterReverts } from '../src/modules/reviews/owed-payouts.ts';
import { TestClock } from './helpers/clock.ts';

const SECOND = 1_000;
const HOUR = 3_600 * SECOND;
const failedAt = new Date('2026-01-01T00:00:00Z');
const later = (ms: number) => new Date(failedAt.getTime() + ms);

/** An owed submission whose payout last changed at `failedAt`. */
function owed(over: Partial<OwedPayoutState> = {}): OwedPayoutState {
  return {
    submissionId: 'sub_1',
    bountyId: 'bnt_1',
    projectId: 'prj_1',
    founderId: 'agt_founder',
    contributorId: 'agt_dev',
    prUrl: 'https://example.test/o/r/pull/1',
    reverts: 1,
    payoutStatus: 'failed',
    payoutUpdatedAt: failedAt,
    ...over,
  };
}

describe('waitsAfterReverts', () => {
  it('never waits for a payout that never reverted (funds, wallets: tried every pass)', () => {
    const o = owed({ reverts: 0 });
    expect(waitsAfterReverts(o, failedAt)).toBe(false);
    expect(waitsAfterReverts(o, later(1))).toBe(false);
  });

  it('waits 30 s after the payout last changed once it reverted once', () => {
    const o = owed({ reverts: 1 });
    expect(waitsAfterReverts(o, failedAt)).toBe(true);
    expect(waitsAfterReverts(o, later(30 * SECOND - 1))).toBe(true);
    expect(waitsAfterReverts(o, later(30 * SECOND))).toBe(false);
    expect(waitsAfterReverts(o, later(HOUR))).toBe(false);
  });

  it('doubles the wait with each revert: 60 s after two, 120 s after three', () => {
    expect(waitsAfterReverts(owed({ reverts: 2 }), later(60 * SECOND - 1))).toBe(true);
    expect(waitsAfterReverts(owed({ reverts: 2 }), later(60 * SECOND))).toBe(false);
    const three = owed({ reverts: 3 });
    expect(waitsAfterReverts(three, later(30 * SECOND))).toBe(true);
    expect(waitsAfterReverts(three, later(120 * SECOND - 1))).toBe(true);
    expect(waitsAfterReverts(three, later(120 * SECOND))).toBe(false);
  });

  it('waits at most an hour, however many times the payout reverted', () => {
    // 30 s * 2^7 = 64 min: past the cap already.
    for (const reverts of [8, 20, 1_000]) {
      const o = owed({ reverts });
      expect(waitsAfterReverts(o, later(HOUR - 1))).toBe(true);
      expect(waitsAfterReverts(o, later(HOUR))).toBe(false);
    }
    // 30 s * 2^6 = 32 min: still under it.
    expect(waitsAfterReverts(owed({ reverts: 7 }), later(32 * 60 * SECOND - 1))).toBe(true);
    expect(waitsAfterReverts(owed({ reverts: 7 }), later(32 * 60 * SECOND))).toBe(false);
  });

  it('never waits for a payout that is not failed (reopened, in flight, paid) or has no payout row', () => {
    for (const payoutStatus of ['pending', 'confirmed', null]) {
      expect(waitsAfterReverts(owed({ reverts: 3, payoutStatus }), failedAt)).toBe(false);
    }
    expect(waitsAfterReverts(owed({ reverts: 3, payoutUpdatedAt: null }), failedAt)).toBe(false);
  });
});

describe('OwedPayouts', () => {
  it('skips an owed payout while it waits after its reverts and approves the others', async () => {
    const clock = new TestClock(failedAt.getTime());
    const states = [
      owed({ submissionId: 'waits', bountyId: 'bnt_waits', reverts: 2 }),
      owed({ submissionId: 'funds', bountyId: 'bnt_funds', reverts: 0 }),
      owed({
        submissionId: 'fresh',
        bountyId: 'bnt_fresh',
        reverts: 0,
        payoutStatus: null,
        payoutUpdatedAt: null,
      }),
    ];
    const approved: string[] = [];
    const job = new OwedPayouts({
      log: { warn() {}, error() {} } as unknown as FastifyBaseLogger,
      clock,
      merges: {
        owed: async () => states,
        recordPayoutFailure: async () => false,
      },
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
    });
    expect(await job.run()).toBe(2);
    expect(approved).toEqual(['funds', 'fresh']);

    // Two reverts: tried again 60 s after the payout last changed.
    clock.advance(60 * SECOND - 1);
    approved.length = 0;
    await job.run();
    expect(approved).toEqual(['funds', 'fresh']);
    clock.advance(1);
    approved.length = 0;
    expect(await job.run()).toBe(3);
    expect(approved).toEqual(['waits', 'funds', 'fresh']);
  });
});
