import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GithubHost } from '../src/infra/repo-host/github-host.ts';
import type { ChecksSummary } from '../src/infra/repo-host/repo-host.ts';
import { AppError } from '../src/lib/errors.ts';
import {
  type FakeAnswer,
  githubExample,
  type OpenApiGithub,
  startOpenApiGithub,
} from './helpers/github-openapi.ts';

/**
 * What GithubHost reads for a pull request's report (head commit, mergeability, checks, files),
 * against a fake GitHub whose every answer is built from GitHub's documented examples and checked
 * against GitHub's OpenAPI description before it is sent.
 */

type Json = Record<string, unknown>;

const OWNER = 'octo-org';
const REPO = 'hello';
const CHECK_RUNS = '/repos/{owner}/{repo}/commits/{ref}/check-runs';
const STATUS = '/repos/{owner}/{repo}/commits/{ref}/status';
const PULL = '/repos/{owner}/{repo}/pulls/{pull_number}';
const FILES = '/repos/{owner}/{repo}/pulls/{pull_number}/files';

const sha = (c: string) => c.repeat(40);

/** A check run as GitHub lists it, from its documented example. */
function checkRun(status: string, conclusion: string | null, name = `check-${status}-${conclusion}`): Json {
  const run = (githubExample(CHECK_RUNS, 'get') as { check_runs: Json[] }).check_runs[0] as Json;
  return {
    ...run,
    name,
    status,
    conclusion,
    completed_at: status === 'completed' ? run.completed_at : null,
  };
}

/** The latest status of one context, from the documented combined status. */
function commitStatus(state: string, context: string): Json {
  const s = (githubExample(STATUS, 'get') as { statuses: Json[] }).statuses[0] as Json;
  return { ...s, state, context };
}

interface Commit {
  /** A list, or the status the check-runs endpoint answers instead (404: no Checks API). */
  runs: Json[] | number;
  runsTotal?: number;
  statuses: Json[] | number;
}

const commits = new Map<string, Commit>();
const pulls = new Map<number, Json>();
const files = new Map<number, Json[]>();

const error = (status: number): FakeAnswer => ({
  status,
  body: {
    message: status === 404 ? 'Not Found' : 'Server Error',
    documentation_url: 'https://docs.github.com/rest',
  },
});

function combined(ref: string, statuses: Json[]): Json {
  const body = githubExample(STATUS, 'get') as Json;
  const state = statuses.some((s) => s.state === 'failure' || s.state === 'error')
    ? 'failure'
    : statuses.length === 0 || statuses.some((s) => s.state === 'pending')
      ? 'pending'
      : 'success';
  return { ...body, sha: ref, state, statuses, total_count: statuses.length };
}

let github: OpenApiGithub;
let host: GithubHost;

beforeAll(async () => {
  github = await startOpenApiGithub([
    {
      method: 'GET',
      path: CHECK_RUNS,
      answer: ({ ref = '' }) => {
        const c = commits.get(ref);
        if (!c) return error(404);
        if (typeof c.runs === 'number') return error(c.runs);
        return { status: 200, body: { total_count: c.runsTotal ?? c.runs.length, check_runs: c.runs } };
      },
    },
    {
      method: 'GET',
      path: STATUS,
      answer: ({ ref = '' }) => {
        const c = commits.get(ref);
        if (!c) return error(404);
        if (typeof c.statuses === 'number') return error(c.statuses);
        return { status: 200, body: combined(ref, c.statuses) };
      },
    },
    {
      method: 'GET',
      path: PULL,
      answer: ({ pull_number = '' }) => {
        const pr = pulls.get(Number(pull_number));
        return pr ? { status: 200, body: pr } : error(404);
      },
    },
    {
      method: 'GET',
      path: FILES,
      answer: ({ pull_number = '' }, q) => {
        const all = files.get(Number(pull_number));
        if (!all) return error(500);
        const perPage = Number(q.get('per_page') ?? 30);
        const page = Number(q.get('page') ?? 1);
        return { status: 200, body: all.slice((page - 1) * perPage, page * perPage) };
      },
    },
  ]);
  host = new GithubHost({
    kind: 'github',
    apiUrl: github.apiUrl,
    org: OWNER,
    token: 'token-for-tests',
    webhookSecret: 'unused',
  });
});

afterAll(() => github?.close());

afterEach(() => {
  const problems = github.problems.splice(0);
  github.requests.length = 0;
  // Every answer the fake sent matched GitHub's description.
  expect(problems).toEqual([]);
});

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

describe('getChecks: check runs and commit statuses summed as GitHub shows them', () => {
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

  it.each(cases)('%s', async (_name, commit, expected) => {
    const ref = sha(String(cases.findIndex((c) => c[1] === commit) % 10));
    commits.set(ref, commit);
    expect(await host.getChecks(OWNER, REPO, ref)).toEqual(expected);
    expect(github.requests.sort()).toEqual([
      `GET /repos/${OWNER}/${REPO}/commits/${ref}/check-runs?per_page=100`,
      `GET /repos/${OWNER}/${REPO}/commits/${ref}/status?per_page=100`,
    ]);
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

describe('listPullRequestFiles', () => {
  const file = (i: number, over: Json = {}): Json => {
    const f = (githubExample(FILES, 'get') as Json[])[0] as Json;
    return { ...f, filename: `src/file-${i}.ts`, additions: i, deletions: 1, changes: i + 1, ...over };
  };

  it('maps each file (patch null when GitHub sends none) and pages by 100', async () => {
    const { patch: _omit, ...binary } = file(2, { status: 'modified' });
    files.set(5, [
      file(1),
      binary,
      file(3, { status: 'renamed', previous_filename: 'old.ts' }),
      ...Array.from({ length: 247 }, (_, i) => file(i + 4)),
    ]);
    const listed = await host.listPullRequestFiles(OWNER, REPO, 5);
    expect(listed).toHaveLength(250);
    expect(listed.slice(0, 3)).toEqual([
      {
        filename: 'src/file-1.ts',
        status: 'added',
        additions: 1,
        deletions: 1,
        patch: '@@ -132,7 +132,7 @@ module Test @@ -1000,7 +1000,7 @@ module Test',
      },
      { filename: 'src/file-2.ts', status: 'modified', additions: 2, deletions: 1, patch: null },
      expect.objectContaining({ filename: 'src/file-3.ts', status: 'renamed' }),
    ]);
    expect(github.requests).toEqual(
      [1, 2, 3].map((p) => `GET /repos/${OWNER}/${REPO}/pulls/5/files?per_page=100&page=${p}`),
    );
  });

  it('stops after a short page, and at 300 files', async () => {
    files.set(6, []);
    expect(await host.listPullRequestFiles(OWNER, REPO, 6)).toEqual([]);
    expect(github.requests).toHaveLength(1);
    github.requests.length = 0;
    files.set(
      7,
      Array.from({ length: 100 }, (_, i) => file(i)),
    );
    expect(await host.listPullRequestFiles(OWNER, REPO, 7)).toHaveLength(100);
    expect(github.requests).toHaveLength(2);
    github.requests.length = 0;
    files.set(
      8,
      Array.from({ length: 450 }, (_, i) => file(i)),
    );
    const capped = await host.listPullRequestFiles(OWNER, REPO, 8);
    expect(capped).toHaveLength(300);
    expect(capped.at(-1)?.filename).toBe('src/file-299.ts');
    expect(github.requests).toHaveLength(3);
  });

  it('fails as upstream_error when GitHub fails', async () => {
    const err = await host.listPullRequestFiles(OWNER, REPO, 404).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('upstream_error');
    expect((err as AppError).message).toContain("list the pull request's files");
  });
});

describe('malformed answers', () => {
  let bad: Server;
  let answers: Record<string, string>;

  beforeAll(async () => {
    bad = createServer((req, res) => {
      const key = Object.keys(answers).find((k) => req.url?.includes(k));
      res.writeHead(200, { 'content-type': 'application/json' }).end(key ? answers[key] : '{}');
    });
    await new Promise<void>((r) => bad.listen(0, '127.0.0.1', r));
  });
  afterAll(() => new Promise((r) => bad.close(r)));

  it('are upstream_error, never a guess', async () => {
    const gh = new GithubHost({
      kind: 'github',
      apiUrl: `http://127.0.0.1:${(bad.address() as AddressInfo).port}`,
      org: OWNER,
      token: null,
      webhookSecret: 'unused',
    });
    const okStatus = '{"total_count": 0, "statuses": []}';
    const okRuns = '{"total_count": 0, "check_runs": []}';
    for (const [runs, status] of [
      ['{"check_runs": []}', okStatus],
      ['{"total_count": 1, "check_runs": [{"status": 3}]}', okStatus],
      ['{"total_count": 1, "check_runs": [{"status": "completed", "conclusion": 7}]}', okStatus],
      [okRuns, '{"total_count": 1, "statuses": [{"state": "fine"}]}'],
      [okRuns, '{"total_count": -1, "statuses": []}'],
      [okRuns, '[]'],
    ] as const) {
      answers = { 'check-runs': runs, '/status': status };
      const err = await gh.getChecks(OWNER, REPO, sha('e')).catch((e: unknown) => e);
      expect((err as AppError).code, `${runs} ${status}`).toBe('upstream_error');
    }
    answers = {
      '/files': '[{"filename": "a", "status": "added", "additions": 1, "deletions": 0, "patch": 5}]',
    };
    expect(((await gh.listPullRequestFiles(OWNER, REPO, 1).catch((e) => e)) as AppError).code).toBe(
      'upstream_error',
    );
    answers = { '/files': '{"files": []}' };
    expect(((await gh.listPullRequestFiles(OWNER, REPO, 1).catch((e) => e)) as AppError).code).toBe(
      'upstream_error',
    );
    answers = {
      '/pulls/': JSON.stringify({
        number: 1,
        state: 'open',
        html_url: 'http://h/p/1',
        title: 't',
        user: { login: 'u' },
        head: { ref: 'r', sha: sha('f') },
        mergeable: 'yes',
      }),
    };
    expect(((await gh.getPullRequest(OWNER, REPO, 1).catch((e) => e)) as AppError).code).toBe(
      'upstream_error',
    );
  });
});
