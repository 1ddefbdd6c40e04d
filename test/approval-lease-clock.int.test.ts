import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, expectError, type TestContext } from './helpers/app.ts';
import { TestClock } from './helpers/clock.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { approve, inReview, okJson, reject, scene } from './helpers/review-flow.ts';

/**
 * The approval lease lapses by the database's clock: two instances whose own clocks disagree by an
 * hour still agree that a live lease is live, so the one ahead never takes it (nor rejects under
 * it) while the other's approval holds the bounty.
 */

const HOUR = 3_600_000;
let a: TestContext;
let b: TestContext;
const chain = new FakeChain();

beforeAll(async () => {
  a = await buildTestApp({ chain, env: { APPROVAL_LEASE_SECONDS: '60' } });
  // The same database, a clock an hour ahead: another host whose clock drifted.
  b = await buildTestApp({
    chain,
    database: a.database,
    clock: new TestClock(Date.now() + HOUR),
    env: { APPROVAL_LEASE_SECONDS: '60' },
  });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

describe('the approval lease across instances whose clocks disagree', () => {
  it('is live for every instance until it lapses by the database clock', async () => {
    const s = await scene(a, chain);
    const { bounty } = await inReview(a.app, s);
    // Instance A's approval holds the bounty for 60 s.
    const held = await a.app.services.bountyState.takeApprovalLease(bounty.id, 'instance-a', 60_000);
    expect(held).toBeDefined();
    // Instance B, an hour ahead by its own clock, still sees it held.
    expect(
      await b.app.services.bountyState.takeApprovalLease(bounty.id, 'instance-b', 60_000),
    ).toBeUndefined();
    expectError(await approve(b.app, s.founder, bounty.id), 409, 'operation_in_progress');
    expectError(
      await reject(b.app, s.founder, bounty.id, { review_notes: 'No.' }),
      409,
      'operation_in_progress',
    );
    expect(chain.signed).toEqual([]);
    // Released, B approves and pays, once.
    await a.app.services.bountyState.releaseApprovalLease(bounty.id, 'instance-a');
    expect(okJson(await approve(b.app, s.founder, bounty.id))).toMatchObject({ status: 'done' });
  });
});
