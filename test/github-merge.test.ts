import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GithubHost } from '../src/infra/repo-host/github-host.ts';
import {
  type FakeAnswer,
  githubExample,
  type OpenApiGithub,
  startOpenApiGithub,
} from './helpers/github-openapi.ts';

/**
 * GithubHost.mergePullRequest (approve with "merge": true) against GitHub's documented merge
 * answers: a fake GitHub whose every answer is checked against the OpenAPI description. Merged is
 * done; a merge GitHub refuses for a reason the pull request carries (405 not mergeable, 409 head
 * moved, 422, 404) is 409 not_mergeable with GitHub's words, unless the pull request turns out
 * merged already (an answer lost on an earlier try); anything else is 502 (outcome unknown).
 */

type Json = Record<string, unknown>;
const MERGE = '/repos/{owner}/{repo}/pulls/{pull_number}/merge';
const PULL = '/repos/{owner}/{repo}/pulls/{pull_number}';

let github: OpenApiGithub;
let host: GithubHost;
let merge: () => FakeAnswer;
let merged = false;

beforeAll(async () => {
  github = await startOpenApiGithub([
    { method: 'PUT', path: MERGE, answer: () => merge() },
    {
      method: 'GET',
      path: PULL,
      answer: () => {
        const body = githubExample(PULL, 'get') as Json;
        // GitHub's own example lists a team without the `type` its schema requires: none here.
        return {
          status: 200,
          body: { ...body, requested_teams: [], merged, state: merged ? 'closed' : 'open' },
        };
      },
    },
  ]);
  host = new GithubHost({ kind: 'github', apiUrl: github.apiUrl, org: 'o', token: 't', webhookSecret: 's' });
});
afterAll(() => github.close());

const attempt = () => host.mergePullRequest('octo-org', 'hello', 1347, { sha: 'a'.repeat(40) });
const refusal = (status: number, message: string): FakeAnswer => ({
  status,
  body: { message, documentation_url: 'https://docs.github.com/rest/pulls/pulls#merge-a-pull-request' },
});

describe('mergePullRequest on GitHub', () => {
  it('resolves when GitHub merged it', async () => {
    merge = () => ({ status: 200, body: githubExample(MERGE, 'put') });
    await expect(attempt()).resolves.toBeUndefined();
    expect(github.requests.at(-1)).toBe('PUT /repos/octo-org/hello/pulls/1347/merge');
  });

  it("is 409 not_mergeable, with GitHub's words, for a conflict, a moved head, a refused or missing pull request", async () => {
    merged = false;
    for (const [status, message] of [
      [405, 'Pull Request is not mergeable'],
      [409, 'Head branch was modified. Review and try the merge again.'],
      [422, 'Validation Failed'],
      [404, 'Not Found'],
    ] as const) {
      merge = () => refusal(status, message);
      const err = await attempt().catch((e: unknown) => e);
      expect(err, String(status)).toMatchObject({ code: 'not_mergeable', status: 409 });
      expect((err as Error).message).toContain(message);
      expect((err as Error).message).toContain('Nothing was paid');
    }
  });

  it('is done when GitHub refuses because an earlier try merged it (its answer was lost)', async () => {
    merged = true;
    merge = () => refusal(405, 'Pull Request is not mergeable');
    await expect(attempt()).resolves.toBeUndefined();
    expect(github.requests.slice(-2)).toEqual([
      'PUT /repos/octo-org/hello/pulls/1347/merge',
      'GET /repos/octo-org/hello/pulls/1347',
    ]);
    merged = false;
  });

  it('is 502 when GitHub fails: the outcome is unknown, nothing is undone', async () => {
    merge = () => refusal(502, 'Server Error');
    await expect(attempt()).rejects.toMatchObject({ code: 'upstream_error', status: 502 });
    expect(github.problems).toEqual([]);
  });
});
