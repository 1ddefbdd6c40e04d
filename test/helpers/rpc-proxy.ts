import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Hex, keccak256 } from 'viem';

interface RpcRequest {
  jsonrpc: '2.0';
  id: number | string | null;
  method: string;
  params?: unknown[];
}

interface RpcResponse {
  jsonrpc: '2.0';
  id: number | string | null;
  result?: unknown;
  error?: unknown;
}

/** What the proxy does wrong, switched by a test at any moment; nothing is wrong by default. */
export interface Faults {
  /**
   * Requests (single or batch) holding one of `methods` fail: `http500` answers HTTP 500, `reset`
   * destroys the connection. With `afterForwarding` the request first reaches the node and only
   * the answer is lost, as when a node accepts a transaction and the connection drops.
   */
  fail?: { methods: string[]; mode: 'http500' | 'reset'; afterForwarding?: boolean };
  /** eth_sendRawTransaction is answered with the transaction's hash but never reaches the node. */
  dropSends?: boolean;
  /** Every request waits this long before it is handled. */
  delayMs?: number;
  /**
   * Requests holding one of `methods` reach the node at once, but their answer comes back only
   * after `ms` (a node slow to answer, past a caller's timeout).
   */
  slow?: { methods: string[]; ms: number };
  /** Runs before each eth_sendRawTransaction is forwarded; the node sees it only after this. */
  beforeSend?: (raw: Hex) => Promise<void>;
}

export interface RpcProxy {
  /** The proxy's endpoint: give it to an EvmChain as `rpcUrl`. */
  url: string;
  /** Replaces the current faults; `set({})` heals the proxy. */
  set(faults: Faults): void;
  /** How many times each method arrived (a batch counts each of its calls). */
  seen(method: string): number;
  /** How many times each method reached the node. */
  forwarded(method: string): number;
  /** Signed transactions the proxy swallowed under `dropSends`, in arrival order. */
  readonly dropped: Hex[];
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      body += c;
    });
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

/**
 * A JSON-RPC proxy on 127.0.0.1 in front of a node (anvil), with switchable faults: failing
 * methods, dropped broadcasts, delays and a hook before each broadcast. Batches are forwarded as
 * batches; a dropped broadcast inside a batch is answered locally and the rest forwarded.
 */
export async function startRpcProxy(upstream: string): Promise<RpcProxy> {
  let faults: Faults = {};
  const seen = new Map<string, number>();
  const forwarded = new Map<string, number>();
  const dropped: Hex[] = [];
  const count = (m: Map<string, number>, calls: RpcRequest[]) => {
    for (const c of calls) m.set(c.method, (m.get(c.method) ?? 0) + 1);
  };

  const forward = async (calls: RpcRequest[]): Promise<RpcResponse[]> => {
    if (calls.length === 0) return [];
    count(forwarded, calls);
    const res = await fetch(upstream, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(calls.length === 1 ? calls[0] : calls),
    });
    const body = (await res.json()) as RpcResponse | RpcResponse[];
    return Array.isArray(body) ? body : [body];
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const text = await readBody(req);
    const parsed = JSON.parse(text) as RpcRequest | RpcRequest[];
    const batch = Array.isArray(parsed);
    const calls = batch ? parsed : [parsed];
    count(seen, calls);
    const f = faults;
    if (f.delayMs) await sleep(f.delayMs);

    const failing = f.fail && calls.some((c) => f.fail?.methods.includes(c.method));
    if (f.fail && failing) {
      if (f.fail.afterForwarding) await forward(calls).catch(() => []);
      if (f.fail.mode === 'reset') {
        req.socket.destroy();
        return;
      }
      res.writeHead(500, { 'content-type': 'text/plain' }).end('injected fault');
      return;
    }

    const answers = new Map<RpcRequest, RpcResponse>();
    const toForward: RpcRequest[] = [];
    for (const c of calls) {
      const raw = c.method === 'eth_sendRawTransaction' ? (c.params?.[0] as Hex) : undefined;
      if (raw && f.dropSends) {
        dropped.push(raw);
        answers.set(c, { jsonrpc: '2.0', id: c.id, result: keccak256(raw) });
        continue;
      }
      if (raw && f.beforeSend) await f.beforeSend(raw);
      toForward.push(c);
    }
    const results = await forward(toForward);
    if (f.slow && calls.some((c) => f.slow?.methods.includes(c.method))) await sleep(f.slow.ms);
    const byId = new Map(results.map((r) => [r.id, r]));
    const out = calls.map(
      (c) =>
        answers.get(c) ??
        byId.get(c.id) ?? {
          jsonrpc: '2.0' as const,
          id: c.id,
          error: { code: -32603, message: 'no answer' },
        },
    );
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(batch ? out : out[0]));
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy error: ${(err as Error).message}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    set(next) {
      faults = next;
    },
    seen: (method) => seen.get(method) ?? 0,
    forwarded: (method) => forwarded.get(method) ?? 0,
    dropped,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
