import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** The verification challenge of a request, or null when it is a delivery. */
export function challengeOf(r: ReceivedRequest): string | null {
  try {
    const body = JSON.parse(r.body) as { type?: unknown; challenge?: unknown };
    return body.type === 'webhook.verification' && typeof body.challenge === 'string' ? body.challenge : null;
  } catch {
    return null;
  }
}

/**
 * A local webhook receiver on 127.0.0.1 (allowed only with WEBHOOK_ALLOW_PRIVATE_URLS). It
 * answers each delivery with the status `respond` picks (by how many it received before), and
 * keeps every delivery in `received` so tests can check what arrived and how it was signed.
 * Verification challenges are kept apart, in `verifications`, and answered 200 with the challenge
 * echoed, as a receiver that wants the events does; with `echo: false`, 200 without it, as any
 * server that never asked for them would. `challengeStatus` answers them with another status.
 */
export async function startReceiver(
  respond: (index: number, req: ReceivedRequest) => number = () => 200,
  opts: { echo?: boolean; challengeStatus?: number } = {},
) {
  const received: ReceivedRequest[] = [];
  const verifications: ReceivedRequest[] = [];
  let answer = respond;
  let echo = opts.echo ?? true;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      const challenge = challengeOf(r);
      if (challenge !== null) {
        verifications.push(r);
        res.statusCode = opts.challengeStatus ?? 200;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(echo ? { challenge } : { ok: true }));
        return;
      }
      const status = answer(received.length, r);
      received.push(r);
      res.statusCode = status;
      if (status >= 300 && status < 400) res.setHeader('location', '/followed');
      res.end(status >= 200 && status < 300 ? 'ok' : 'no');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    verifications,
    /** Changes how later requests are answered. */
    setResponder(next: (index: number, req: ReceivedRequest) => number) {
      answer = next;
    },
    /** Whether later challenges are echoed. */
    setEcho(next: boolean) {
      echo = next;
    },
    /** Headers as `Webhook.verify` takes them. */
    headersOf(r: ReceivedRequest): Record<string, string> {
      return Object.fromEntries(
        Object.entries(r.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : (v ?? '')]),
      );
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
