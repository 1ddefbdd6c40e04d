import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createLogger, redactKeys, redactUrl } from '../src/infra/logger.ts';
import { generateApiKey } from '../src/lib/api-key.ts';

/**
 * Issue 26: API keys never appear in logs, percent-encoded or not (`%62mk_…`, `bmk%5F…`), in
 * URLs, bodies and error objects.
 */

const key = generateApiKey();
const secret = key.slice(4); // what makes it a key: the part after the prefix
const percent = (s: string) =>
  [...s].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
const ENCODED = [
  key,
  `%62${key.slice(1)}`,
  `bmk%5F${secret}`,
  `bmk%5f${secret.slice(0, 5)}${percent(secret.slice(5, 9))}${secret.slice(9)}`,
  percent(key),
  percent(key).toUpperCase(),
  encodeURIComponent(percent(key)),
];

/** Every percent-decoding of a line, so an encoded key shows as itself. */
function decodings(line: string): string[] {
  const out = [line];
  let current = line;
  for (let i = 0; i < 4; i++) {
    const next = current.replace(/%([0-9A-Fa-f]{2})/g, (_m, h: string) =>
      String.fromCharCode(Number.parseInt(h, 16)),
    );
    if (next === current) break;
    out.push(next);
    current = next;
  }
  return out;
}

const expectNoKey = (lines: string[]) => {
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines)
    for (const text of decodings(line)) expect(text, line).not.toContain(secret.slice(0, 12));
};

describe('redactKeys', () => {
  it('redacts a key plain or with any of its characters percent-encoded', () => {
    for (const form of ENCODED) {
      expect(redactKeys(`before ${form} after`), form).toBe('before bmk_[redacted] after');
      expect(redactUrl(`/api/x?q=${form}`), form).toBe('/api/x?q=bmk_[redacted]');
    }
    expect(redactKeys('100% sure, bmk_ alone')).toBe('100% sure, bmk_ alone');
  });
});

describe('the process logger', () => {
  it('logs a request, its body and its error without the key, however it is encoded', async () => {
    const lines: string[] = [];
    const app = Fastify({
      loggerInstance: createLogger({ logLevel: 'info' }, { write: (line: string) => void lines.push(line) }),
    });
    app.post('/echo', async (request) => {
      // A handler that logs what it was sent under names the serializers do not know.
      request.log.info({ url: request.raw.url, payload: request.body, headers: request.headers }, 'received');
      const err = new Error(`could not use ${ENCODED[1]}`) as Error & { body?: unknown; token?: string };
      err.body = request.body;
      err.token = ENCODED[2];
      throw err;
    });
    for (const form of ENCODED) {
      lines.length = 0;
      const res = await app.inject({
        method: 'POST',
        url: `/echo?access_token=${form}&q=${form}`,
        headers: { 'content-type': 'application/json', 'x-api-key': form },
        payload: JSON.stringify({ api_key_text: form, nested: { note: `key ${form}` } }),
      });
      expect(res.statusCode).toBe(500);
      expect(lines.join('\n')).toContain('received');
      expectNoKey(lines);
    }
    await app.close();
  });
});

describe('secret fields', () => {
  it('are censored in any object a line logs, one level down, and the caller keeps its objects', () => {
    const lines: string[] = [];
    const logger = createLogger({ logLevel: 'info' }, { write: (line: string) => void lines.push(line) });
    const wallet = { address: '0xabc', privateKey: '0xdeadbeefcafe' };
    const body = { name: 'n', api_key: 'plain-secret-1', nested: { apiKey: 'deeper-is-not-censored' } };
    const err = Object.assign(new Error('boom'), { privateKey: '0xfeedface' });
    const other = Object.assign(new Error('bang'), { apiKey: 'plain-secret-2' });
    logger.info({ wallet, body, err, other, count: 3 }, 'with secrets');
    logger.info({ wallet: { address: '0xabc' } }, 'without');
    logger.info(
      { privateKey: '0xtoplevelsecret', to: '0x2', apiKey: { apiKey: 'x', part: 'inner-secret' } },
      'a field of the line itself',
    );
    const [withSecrets, without, own] = lines.map((l) => JSON.parse(l));
    expect(own).toMatchObject({ privateKey: '[redacted]', to: '0x2', apiKey: '[redacted]' });
    expect(withSecrets.wallet).toEqual({ address: '0xabc', privateKey: '[redacted]' });
    expect(withSecrets.body).toMatchObject({ name: 'n', api_key: '[redacted]' });
    // One level down, as pino's `*.field` paths were: deeper fields are the caller's to keep out.
    expect(withSecrets.body.nested.apiKey).toBe('deeper-is-not-censored');
    expect(withSecrets.err).toMatchObject({ type: 'Error', message: 'boom', privateKey: '[redacted]' });
    expect(withSecrets.err.stack).toContain('boom');
    expect(withSecrets.other).toMatchObject({ message: 'bang', apiKey: '[redacted]' });
    expect(withSecrets.count).toBe(3);
    for (const s of [
      '0xdeadbeefcafe',
      'plain-secret-1',
      '0xfeedface',
      'plain-secret-2',
      '0xtoplevelsecret',
      'inner-secret',
    ])
      expect(lines.join('')).not.toContain(s);
    expect(without.wallet).toEqual({ address: '0xabc' });
    // The logged objects are the caller's, unchanged.
    expect(wallet.privateKey).toBe('0xdeadbeefcafe');
    expect(body.api_key).toBe('plain-secret-1');
    expect(err.privateKey).toBe('0xfeedface');
  });
});
