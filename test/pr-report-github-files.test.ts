import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GithubHost } from '../src/infra/repo-host/github-host.ts';
import { AppError } from '../src/lib/errors.ts';
import { githubExample } from './helpers/github-openapi.ts';
import {
  FILES,
  files,
  github,
  host,
  type Json,
  OWNER,
  REPO,
  sha,
  useFakeGithub,
} from './helpers/pr-report-github.ts';

/**
 * What GithubHost reads of a pull request's files, and how it refuses malformed answers; the head
 * commit and the checks are in pr-report-github.test.ts.
 */

useFakeGithub();

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
    const okStatus = '[]';
    const okRuns = '{"total_count": 0, "check_runs": []}';
    for (const [runs, status] of [
      ['{"check_runs": []}', okStatus],
      ['{"total_count": -1, "check_runs": []}', okStatus],
      ['{"total_count": 1, "check_runs": [{"status": 3}]}', okStatus],
      ['{"total_count": 1, "check_runs": [{"status": "completed", "conclusion": 7}]}', okStatus],
      [
        '{"total_count": 1, "check_runs": [{"name": "b", "status": "completed", "app": {"slug": 7}}]}',
        okStatus,
      ],
      [okRuns, '[{"state": "fine", "context": "ci"}]'],
      [okRuns, '[{"state": "success"}]'],
      [okRuns, '[{"state": "success", "context": "ci", "creator": {"login": 5}}]'],
      [okRuns, '{"total_count": 0, "statuses": []}'],
    ] as const) {
      answers = { 'check-runs': runs, '/statuses': status };
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
