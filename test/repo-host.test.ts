import { describe, expect, it } from 'vitest';
import { parseCommitWebhook, parsePullRequestWebhook } from '../src/infra/repo-host/host-webhooks.ts';
import { signWebhook, verifyWebhookSignature } from '../src/infra/repo-host/webhook-signature.ts';
import { AppError } from '../src/lib/errors.ts';

const payload = (over: Record<string, unknown> = {}, pr: Record<string, unknown> = {}) => ({
  action: 'closed',
  number: 7,
  pull_request: { number: 7, merged: true, html_url: 'https://github.com/org/repo/pull/7', ...pr },
  repository: { full_name: 'org/repo' },
  ...over,
});

describe('webhook signatures (X-Hub-Signature-256)', () => {
  const body = Buffer.from('{"action":"closed"}');
  const secret = 'It is a secret';

  it('accept exactly the HMAC-SHA256 of the raw body under the secret', () => {
    const header = signWebhook(secret, body);
    expect(header).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature(secret, body, header)).toBe(true);
  });

  it('refuse other bodies, other secrets and malformed or missing headers', () => {
    const header = signWebhook(secret, body);
    expect(verifyWebhookSignature(secret, Buffer.from('{"action":"opened"}'), header)).toBe(false);
    expect(verifyWebhookSignature('another secret', body, header)).toBe(false);
    expect(verifyWebhookSignature(secret, body, undefined)).toBe(false);
    expect(verifyWebhookSignature(secret, body, header.slice('sha256='.length))).toBe(false);
    expect(verifyWebhookSignature(secret, body, header.slice(0, -2))).toBe(false);
    expect(verifyWebhookSignature(secret, body, `sha1=${header.slice(7)}`)).toBe(false);
  });

  it('verify nothing without a secret, even a signature made with the empty secret', () => {
    expect(verifyWebhookSignature('', body, signWebhook('', body))).toBe(false);
  });
});

describe('parsePullRequestWebhook', () => {
  it('reads action, number, merged, html_url and the repository', () => {
    expect(parsePullRequestWebhook(payload())).toEqual({
      action: 'closed',
      number: 7,
      merged: true,
      htmlUrl: 'https://github.com/org/repo/pull/7',
      repositoryFullName: 'org/repo',
    });
    expect(parsePullRequestWebhook(payload({ action: 'opened' }, { merged: null })).merged).toBe(false);
  });

  it('carries the head commit when the delivery has pull_request.head.sha', () => {
    const sha = 'a'.repeat(40);
    expect(
      parsePullRequestWebhook(payload({ action: 'synchronize' }, { head: { ref: 'work', sha } })),
    ).toEqual({
      action: 'synchronize',
      number: 7,
      merged: true,
      htmlUrl: 'https://github.com/org/repo/pull/7',
      repositoryFullName: 'org/repo',
      headSha: sha,
    });
    expect(parsePullRequestWebhook(payload({}, { head: { ref: 'work' } }))).not.toHaveProperty('headSha');
  });

  it('answers upstream_error (502) for a malformed payload', () => {
    for (const bad of [
      payload({}, { head: { sha: 'main' } }),
      payload({}, { head: { sha: 42 } }),
      payload({}, { head: 'abc' }),
      null,
      [],
      'text',
      payload({ action: undefined }),
      payload({ repository: undefined }),
      payload({ repository: { full_name: 'no-slash' } }),
      payload({ number: 8 }),
      payload({}, { number: '7' }),
      payload({}, { merged: 'yes' }),
      payload({}, { html_url: 'javascript:alert(1)' }),
      payload({ pull_request: undefined }),
    ]) {
      let caught: unknown;
      try {
        parsePullRequestWebhook(bad);
      } catch (err) {
        caught = err;
      }
      expect(caught, JSON.stringify(bad)).toBeInstanceOf(AppError);
      expect((caught as AppError).code).toBe('upstream_error');
      expect((caught as AppError).status).toBe(502);
    }
  });
});

describe('parseCommitWebhook', () => {
  const sha = 'b'.repeat(40);
  const repository = { full_name: 'org/repo' };
  const expectUpstream = (fn: () => unknown, what: string) => {
    let caught: unknown;
    try {
      fn();
    } catch (err) {
      caught = err;
    }
    expect(caught, what).toBeInstanceOf(AppError);
    expect((caught as AppError).code).toBe('upstream_error');
    expect((caught as AppError).status).toBe(502);
  };

  it('reads the commit of status, check_run and check_suite deliveries', () => {
    const expected = { repositoryFullName: 'org/repo', sha };
    expect(parseCommitWebhook('status', { sha, state: 'success', context: 'ci', repository })).toEqual(
      expected,
    );
    expect(
      parseCommitWebhook('check_run', { action: 'completed', check_run: { head_sha: sha }, repository }),
    ).toEqual(expected);
    expect(
      parseCommitWebhook('check_suite', { action: 'completed', check_suite: { head_sha: sha }, repository }),
    ).toEqual(expected);
    // SHA-256 repositories have 64-digit ids.
    const long = 'c'.repeat(64);
    expect(parseCommitWebhook('status', { sha: long, repository })?.sha).toBe(long);
  });

  it('answers null for other events, whatever their payload', () => {
    for (const event of ['pull_request', 'push', 'ping', '', 'constructor', 'toString', '__proto__'])
      expect(parseCommitWebhook(event, { sha, repository }), event).toBeNull();
    expect(parseCommitWebhook('push', null)).toBeNull();
  });

  it('answers upstream_error (502) for a malformed payload of these events', () => {
    const cases: [string, unknown][] = [
      ['status', null],
      ['status', []],
      ['status', { sha, repository: undefined }],
      ['status', { sha, repository: { full_name: 'no-slash' } }],
      ['status', { sha: undefined, repository }],
      ['status', { sha: 'main', repository }],
      ['status', { sha: sha.toUpperCase(), repository }],
      ['check_run', { check_run: { head_sha: 7 }, repository }],
      ['check_run', { sha, repository }],
      ['check_suite', { check_suite: null, repository }],
      ['check_suite', { check_suite: { head_sha: 'abc' }, repository }],
    ];
    for (const [event, body] of cases)
      expectUpstream(() => parseCommitWebhook(event, body), `${event} ${JSON.stringify(body)}`);
  });
});
