import { request } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { appForFile } from './helpers/builders.ts';

/**
 * What Node's HTTP parser refuses before any route runs is still answered in the envelope: a
 * request line and headers over 16 KiB (431 `headers_too_large`), a request that is not HTTP (400).
 */

let base: URL;

const ctx = appForFile();
beforeAll(async () => {
  base = new URL(await ctx.app.listen({ port: 0, host: '127.0.0.1' }));
});

function send(path: string, headers: Record<string, string>): Promise<{ status?: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: base.hostname, port: base.port, path, headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => {
        body += c.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('requests the HTTP parser refuses', () => {
  it('answers headers over 16 KiB with 431 headers_too_large, in the envelope', async () => {
    const res = await send(`/api/bounties?q=${'x'.repeat(9000)}`, {
      authorization: `Bearer ${'y'.repeat(9000)}`,
    });
    expect(res.status).toBe(431);
    const body = JSON.parse(res.body) as { error: { code: string; message: string; request_id: string } };
    expect(body.error).toMatchObject({ code: 'headers_too_large' });
    expect(body.error.message).toMatch(/16 KiB/);
    expect(body.error.request_id).toMatch(/^[0-9a-f-]{36}$/);
    // The service still answers the next request.
    expect((await send('/livez', {})).status).toBe(200);
  });
});
