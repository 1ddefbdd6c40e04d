import { Agent, createServer, type IncomingHttpHeaders, request } from 'node:http';
import type { Socket } from 'node:net';

/** Connection-level headers a proxy never forwards (RFC 9110 §7.6.1). */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te'];

function forwardable(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const out = { ...headers };
  for (const h of HOP_BY_HOP) delete out[h];
  return out;
}

export interface RoundRobinProxy {
  /** Where clients send requests: `http://127.0.0.1:<port>`. */
  url: string;
  /** For each request the proxy forwarded, in arrival order, the index of the backend that got it. */
  served: number[];
  close(): Promise<void>;
}

/**
 * A minimal HTTP load balancer for tests, doing what nginx's default upstream does: each request
 * goes to the next backend in turn, bodies stream both ways (Server-Sent Events included), the
 * client's Host is kept and its address appended to X-Forwarded-For. Nothing is sticky.
 */
export async function startRoundRobinProxy(backends: string[]): Promise<RoundRobinProxy> {
  const agent = new Agent({ keepAlive: true });
  const served: number[] = [];
  const sockets = new Set<Socket>();
  let next = 0;
  const server = createServer((req, res) => {
    const index = next++ % backends.length;
    served.push(index);
    const target = new URL(req.url ?? '/', backends[index]);
    const forwardedFor = [req.headers['x-forwarded-for'], req.socket.remoteAddress]
      .filter(Boolean)
      .join(', ');
    const upstream = request(
      target,
      {
        method: req.method,
        agent,
        headers: {
          ...forwardable(req.headers),
          'x-forwarded-for': forwardedFor,
          'x-forwarded-proto': 'http',
        },
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, forwardable(up.headers));
        // An event stream's head must reach the client before its first event.
        res.flushHeaders();
        up.pipe(res);
        res.on('close', () => up.destroy());
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('bad gateway');
    });
    req.pipe(upstream);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    async close() {
      // Open streams would keep close() waiting forever.
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
