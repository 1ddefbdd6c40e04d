import { describe, expect, it } from 'vitest';
import type { ChecksSummary } from '../src/infra/repo-host/repo-host.ts';
import { AppError } from '../src/lib/errors.ts';
import { checksReport } from '../src/modules/reviews/checks-report.ts';
import { githubExample } from './helpers/github-openapi.ts';
import {
  type Commit,
  checkRun,
  commitStatus,
  commits,
  github,
  host,
  type Json,
  OWNER,
  PULL,
  pulls,
  REPO,
  sha,
  useFakeGithub,
} from './helpers/pr-report-github.ts';

/**
 * What GithubHost reads for a pull request's report (head commit, mergeability, checks, files),
 * against a fake GitHub whose every answer is built from GitHub's documented examples and checked
 * against GitHub's OpenAPI description before it is sent.
 */

useFakeGithub();

describe('getPullRequest', () => {
  /** GitHub's example pull request (its example team lacks a field its own schema requires). */
  const examplePull = (over: Json): Json => {
    const pr = githubExample(PULL, 'get') as Json;
    return { ...pr, requested_teams: [], ...over };
  };

  it('reads the head commit and whether it merges, as GitHub says it (true, false or null)', async () => {
    const head = sha('a');
    for (const [number, mergeable] of [
      [11, true],
      [12, false],
      [13, null],
    ] as const) {
      const base = githubExample(PULL, 'get') as { head: Json };
      pulls.set(number, examplePull({ number, mergeable, head: { ...base.head, sha: head } }));
      const pr = await host.getPullRequest(OWNER, REPO, number);
      expect(pr).toMatchObject({
        number,
        state: 'open',
        merged: false,
        headRef: 'new-topic',
        headSha: head,
        mergeable,
        title: 'Amazing new feature',
        authorLogin: 'octocat',
        additions: 100,
        deletions: 3,
        changedFiles: 5,
      });
    }
  });

  it('refuses a head sha that is not a commit id (upstream_error)', async () => {
    const base = githubExample(PULL, 'get') as { head: Json };
    pulls.set(14, examplePull({ number: 14, head: { ...base.head, sha: 'main' } }));
    const err = await host.getPullRequest(OWNER, REPO, 14).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('upstream_error');
  });
});

describe('getChecks: check runs and commit statuses with who set them, summed as GitHub shows them', () => {
  const cases: [string, Commit, ChecksSummary][] = [
    [
      'success: every run passed (neutral and skipped count as passed) and every status succeeded',
      {
        runs: [
          checkRun('completed', 'success'),
          checkRun('completed', 'neutral'),
          checkRun('completed', 'skipped'),
        ],
        statuses: [commitStatus('success', 'ci/build'), commitStatus('success', 'ci/lint')],
      },
      { state: 'success', total: 5, failed: 0 },
    ],
    [
      'failure: failed, timed out, cancelled and action-required runs, failed and errored statuses',
      {
        runs: [
          checkRun('completed', 'failure'),
          checkRun('completed', 'timed_out'),
          checkRun('completed', 'cancelled'),
          checkRun('completed', 'action_required'),
          checkRun('completed', 'success'),
          checkRun('in_progress', null),
        ],
        statuses: [
          commitStatus('failure', 'ci/a'),
          commitStatus('error', 'ci/b'),
          commitStatus('pending', 'ci/c'),
          commitStatus('success', 'ci/d'),
        ],
      },
      { state: 'failure', total: 10, failed: 6 },
    ],
    [
      'failure from a status alone',
      { runs: [checkRun('completed', 'success')], statuses: [commitStatus('error', 'ci/a')] },
      { state: 'failure', total: 2, failed: 1 },
    ],
    [
      'pending: a run not finished (queued, in progress)',
      {
        runs: [checkRun('queued', null), checkRun('in_progress', null), checkRun('completed', 'success')],
        statuses: [commitStatus('success', 'ci/a')],
      },
      { state: 'pending', total: 4, failed: 0 },
    ],
    [
      'pending: a status pending',
      { runs: [checkRun('completed', 'success')], statuses: [commitStatus('pending', 'ci/a')] },
      { state: 'pending', total: 2, failed: 0 },
    ],
    [
      'none: no run and no status (GitHub still says the combined state is pending)',
      { runs: [], statuses: [] },
      { state: 'none', total: 0, failed: 0 },
    ],
    [
      'statuses only: a host without the Checks API answers 404 for check runs',
      { runs: 404, statuses: [commitStatus('success', 'ci/a'), commitStatus('success', 'ci/b')] },
      { state: 'success', total: 2, failed: 0 },
    ],
    [
      'none on a host without the Checks API and no statuses',
      { runs: 404, statuses: [] },
      { state: 'none', total: 0, failed: 0 },
    ],
    [
      'the total counts every run, beyond the first page of 100',
      {
        runs: Array.from({ length: 100 }, (_, i) => checkRun('completed', 'success', `run-${i}`)),
        runsTotal: 140,
        statuses: [],
      },
      { state: 'success', total: 140, failed: 0 },
    ],
  ];

  // The example statuses are octocat's: here the founder's, so every one counts.
  const who = { founderLogin: 'octocat', authorLogin: 'contributor' };
  const none = { state: 'none', total: 0, failed: 0 };

  it.each(cases)('%s', async (_name, commit, expected) => {
    const ref = sha(String(cases.findIndex((c) => c[1] === commit) % 10));
    commits.set(ref, commit);
    expect(checksReport(await host.getChecks(OWNER, REPO, ref), who)).toEqual({
      ...expected,
      by_author: none,
    });
    expect(github.requests.sort()).toEqual([
      `GET /repos/${OWNER}/${REPO}/commits/${ref}/check-runs?per_page=100`,
      `GET /repos/${OWNER}/${REPO}/commits/${ref}/statuses?per_page=100&page=1`,
    ]);
  });

  it("says who set each check: a status's creator, a check run's app; the latest status per context", async () => {
    const ref = sha('9');
    commits.set(ref, {
      runs: [checkRun('completed', 'success', 'build')],
      // Newest first: the founder's `ci` now passes; its older failure is history.
      statuses: [
        commitStatus('success', 'ci', { login: 'founder' }),
        commitStatus('failure', 'forged', { login: 'stranger' }),
        commitStatus('pending', 'deploy', { login: 'deployer[bot]', type: 'Bot' }),
        commitStatus('failure', 'my-tests', { login: 'Contributor' }),
        commitStatus('error', 'CI', { login: 'founder' }),
        commitStatus('success', 'unknown', null),
      ],
    });
    const read = await host.getChecks(OWNER, REPO, ref);
    expect(read).toEqual({
      checks: [
        { kind: 'check_run', name: 'build', state: 'success', creator: 'octoapp[bot]', integration: true },
        { kind: 'status', name: 'ci', state: 'success', creator: 'founder', integration: false },
        { kind: 'status', name: 'forged', state: 'failure', creator: 'stranger', integration: false },
        { kind: 'status', name: 'deploy', state: 'pending', creator: 'deployer[bot]', integration: true },
        { kind: 'status', name: 'my-tests', state: 'failure', creator: 'Contributor', integration: false },
        { kind: 'status', name: 'unknown', state: 'success', creator: null, integration: false },
      ],
      unlistedRuns: 0,
    });
    // The founder's, the app's and the bot's count; the author's own apart; the stranger's and the
    // nameless one nowhere.
    expect(checksReport(read, { founderLogin: 'FOUNDER', authorLogin: 'contributor' })).toEqual({
      state: 'pending',
      total: 3,
      failed: 0,
      by_author: { state: 'failure', total: 1, failed: 1 },
    });
  });

  it('reads the statuses by pages of 100, up to 300', async () => {
    const ref = sha('e');
    const many = Array.from({ length: 350 }, (_, i) => commitStatus('success', `ctx-${i}`));
    commits.set(ref, { runs: [], statuses: many });
    const read = await host.getChecks(OWNER, REPO, ref);
    expect(read.checks).toHaveLength(300);
    expect(github.requests.filter((r) => r.includes('/statuses')).sort()).toEqual(
      [1, 2, 3].map((p) => `GET /repos/${OWNER}/${REPO}/commits/${ref}/statuses?per_page=100&page=${p}`),
    );
  });

  it('fails as upstream_error when either endpoint fails, or the commit is unknown', async () => {
    commits.set(sha('b'), { runs: 500, statuses: [] });
    commits.set(sha('c'), { runs: [], statuses: 500 });
    for (const ref of [sha('b'), sha('c'), sha('d')]) {
      const err = await host.getChecks(OWNER, REPO, ref).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('upstream_error');
      expect((err as AppError).status).toBe(502);
      expect((err as AppError).message).toContain('read the checks of the commit');
    }
  });
});
