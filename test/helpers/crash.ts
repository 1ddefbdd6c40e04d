import type { EvmChainOptions } from '../../src/infra/chain/evm-chain.ts';
import { type ServerProcess, startServer } from './process.ts';

/** A small seeded PRNG (mulberry32): the same seed replays the same kill schedule. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The environment that points the real server at an external chain (a test anvil). */
export function externalChainEnv(o: EvmChainOptions): Record<string, string> {
  return {
    CHAIN_RPC_URL: o.rpcUrl,
    CHAIN_ID: String(o.chainId),
    CHAIN_NAME: o.name,
    FACTORY_ADDRESS: o.factoryAddress,
    TREASURY_ADDRESS: o.treasuryAddress,
    OPERATOR_PRIVATE_KEY: o.operatorKey,
    PAYOUT_PRIVATE_KEY: o.payoutKey,
    CHAIN_POLLING_INTERVAL_MS: String(o.pollingIntervalMs),
  };
}

/** Starts the server, failing with its output when it is not listening within `timeoutMs`. */
export async function startServerWithin(env: Record<string, string>, timeoutMs = 60_000): Promise<ServerProcess> {
  const starting = startServer(env);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`server did not listen within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([starting, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** SIGKILL: no shutdown hook, no finally block, no flush; resolves once the process is gone. */
export async function killHard(server: ServerProcess): Promise<void> {
  server.child.kill('SIGKILL');
  await server.exited;
}

export interface ApiResponse {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies of many shapes, checked by the tests.
  body: any;
}

/** One JSON call against a running server; a connection cut by a kill rejects. */
export async function api(
  baseUrl: string,
  method: 'GET' | 'POST',
  path: string,
  opts: { key?: string; body?: unknown } = {},
): Promise<ApiResponse> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(opts.key ? { authorization: `Bearer ${opts.key}` } : {}),
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}
