import { describe, expect, it } from 'vitest';
import { parsePullRequestWebhook } from '../src/infra/repo-host/repo-host.ts';
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

  it('answers upstream_error (502) for a malformed payload', () => {
    for (const bad of [
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
