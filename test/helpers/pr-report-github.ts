import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { GithubHost } from '../../src/infra/repo-host/github-host.ts';
import { type FakeAnswer, githubExample, type OpenApiGithub, startOpenApiGithub } from './github-openapi.ts';

export type Json = Record<string, unknown>;

export const OWNER = 'octo-org';
export const REPO = 'hello';
export const CHECK_RUNS = '/repos/{owner}/{repo}/commits/{ref}/check-runs';
export const STATUSES = '/repos/{owner}/{repo}/commits/{ref}/statuses';
export const PULL = '/repos/{owner}/{repo}/pulls/{pull_number}';
export const FILES = '/repos/{owner}/{repo}/pulls/{pull_number}/files';

export const sha = (c: string) => c.repeat(40);

/** A check run as GitHub lists it, from its documented example. */
export function checkRun(
  status: string,
  conclusion: string | null,
  name = `check-${status}-${conclusion}`,
): Json {
  const run = (githubExample(CHECK_RUNS, 'get') as { check_runs: Json[] }).check_runs[0] as Json;
  return {
    ...run,
    name,
    status,
    conclusion,
    completed_at: status === 'completed' ? run.completed_at : null,
  };
}

/** A status as GitHub lists them, from its documented example (set by octocat, a user, unless said). */
export function commitStatus(
  state: string,
  context: string,
  creator: { login: string; type?: 'User' | 'Bot' } | null = { login: 'octocat' },
): Json {
  const s = (githubExample(STATUSES, 'get') as Json[])[0] as Json & { creator: Json };
  return { ...s, state, context, creator: creator && { ...s.creator, type: 'User', ...creator } };
}

export interface Commit {
  /** A list, or the status the check-runs endpoint answers instead (404: no Checks API). */
  runs: Json[] | number;
  runsTotal?: number;
  /** Newest first, as GitHub lists them; or the status the endpoint answers instead. */
  statuses: Json[] | number;
}

export const commits = new Map<string, Commit>();
export const pulls = new Map<number, Json>();
export const files = new Map<number, Json[]>();

export const error = (status: number): FakeAnswer => ({
  status,
  body: {
    message: status === 404 ? 'Not Found' : 'Server Error',
    documentation_url: 'https://docs.github.com/rest',
  },
});

export let github: OpenApiGithub;
export let host: GithubHost;

/** Starts the fake before the file and checks every answer it sent after each test. */
export function useFakeGithub(): void {
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
        path: STATUSES,
        answer: ({ ref = '' }, q) => {
          const c = commits.get(ref);
          if (!c) return error(404);
          if (typeof c.statuses === 'number') return error(c.statuses);
          const perPage = Number(q.get('per_page') ?? 30);
          const page = Number(q.get('page') ?? 1);
          return { status: 200, body: c.statuses.slice((page - 1) * perPage, page * perPage) };
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
}
