import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A local webhook receiver on 127.0.0.1 (allowed only with WEBHOOK_ALLOW_PRIVATE_URLS). It
 * answers each request with the status `respond` picks (by how many it received before), and
 * keeps every request so tests can check what arrived and how it was signed.
 */
export async function startReceiver(respond: (index: number, req: ReceivedRequest) => number = () => 200) {
  const received: ReceivedRequest[] = [];
  let answer = respond;
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
    /** Changes how later requests are answered. */
    setResponder(next: (index: number, req: ReceivedRequest) => number) {
      answer = next;
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
