import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseComparison } from '../src/infra/repo-host/github-compare.ts';
import { GithubHost } from '../src/infra/repo-host/github-host.ts';
import { parsePullRequest } from '../src/infra/repo-host/github-pulls.ts';
import { AppError } from '../src/lib/errors.ts';
import {
  type FakeAnswer,
  githubExample,
  type OpenApiGithub,
  startOpenApiGithub,
} from './helpers/github-openapi.ts';

/**
 * GithubHost.compareCommits against GitHub's documented compare answer (a fake GitHub checking its
 * every answer against the OpenAPI description), the refusals it reads, and the pull request's
 * description as parsePullRequest reads it.
 */

type Json = Record<string, unknown>;
const COMPARE = '/repos/{owner}/{repo}/compare/{basehead}';
const PULL = '/repos/{owner}/{repo}/pulls/{pull_number}';

let github: OpenApiGithub;
let host: GithubHost;
let answer: () => FakeAnswer;

beforeAll(async () => {
  github = await startOpenApiGithub([{ method: 'GET', path: COMPARE, answer: () => answer() }]);
  host = new GithubHost({ kind: 'github', apiUrl: github.apiUrl, org: 'o', token: 't', webhookSecret: 's' });
});
afterAll(() => github.close());

describe('compareCommits', () => {
  it("reads the commits between and the files with their patches from GitHub's answer", async () => {
    const body = githubExample(COMPARE, 'get') as Json;
    answer = () => ({ status: 200, body });
    const base = 'a'.repeat(40);
    const head = 'b'.repeat(40);
    expect(await host.compareCommits('octo-org', 'hello', base, head)).toEqual({
      totalCommits: 1,
      commits: [
        {
          sha: '6dcb09b5b57875f334f61aebed695e2e4193db5e',
          authorName: 'Monalisa Octocat',
          message: 'Fix all the bugs',
        },
      ],
      files: [
        {
          filename: 'file1.txt',
          status: 'added',
          additions: 103,
          deletions: 21,
          patch: '@@ -132,7 +132,7 @@ module Test @@ -1000,7 +1000,7 @@ module Test',
        },
      ],
    });
    expect(github.requests.at(-1)).toBe(`GET /repos/octo-org/hello/compare/${base}...${head}`);
    // Too large a diff to list: GitHub leaves the files out.
    const { files: _files, ...noFiles } = body;
    answer = () => ({ status: 200, body: noFiles });
    expect((await host.compareCommits('octo-org', 'hello', base, head))?.files).toEqual([]);
    expect(github.problems).toEqual([]);
  });

  it('is null for a commit GitHub does not have (404); upstream_error for a malformed answer', async () => {
    answer = () => ({
      status: 404,
      body: { message: 'Not Found', documentation_url: 'https://docs.github.com' },
    });
    expect(await host.compareCommits('octo-org', 'hello', 'main', 'gone')).toBeNull();
    const body = githubExample(COMPARE, 'get') as Json & { commits: Json[] };
    // Beyond the description: the fake would refuse to send it, so the adapter's reader gets it directly.
    expect(() => parseComparison({ ...body, commits: [{ sha: 'nope', commit: {} }] })).toThrow(AppError);
    expect(() => parseComparison({ ...body, commits: 'none' })).toThrow(AppError);
  });
});

describe("the pull request's description", () => {
  const pull = () => githubExample(PULL, 'get') as Json;

  it('is the body GitHub sends, null for an empty one, absent when GitHub leaves it out', () => {
    expect(parsePullRequest({ ...pull(), body: 'Fixes it.\nAnd more.' }).body).toBe('Fixes it.\nAnd more.');
    expect(parsePullRequest({ ...pull(), body: null }).body).toBeNull();
    expect(parsePullRequest({ ...pull(), body: '' }).body).toBeNull();
    const { body: _body, ...without } = pull();
    expect(parsePullRequest(without)).not.toHaveProperty('body');
    expect(() => parsePullRequest({ ...pull(), body: 42 })).toThrow(AppError);
  });
});
