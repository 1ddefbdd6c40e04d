import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import type { TestProject } from 'vitest/node';
import { type DevChain, startDevChain } from '../../src/infra/chain/dev-chain.ts';
import type { EvmChainOptions } from '../../src/infra/chain/evm-chain.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** One dev chain (anvil + factory) per worker slot, indexed by VITEST_POOL_ID - 1. */
    sharedAnvils: EvmChainOptions[];
  }
}

/**
 * Starts one embedded dev chain per worker slot before the project's files run, and stops them
 * after. A worker runs one file at a time, so the file owns its slot's anvil for its duration:
 * `startTestChain()` takes a snapshot at the start and reverts to it at `stop()`, and the next file
 * finds the chain as freshly deployed. This replaces an anvil start and a factory deployment per
 * file with one `evm_snapshot`/`evm_revert` pair.
 */
export default async function setup(project: TestProject) {
  const slots = Math.max(1, Number(project.vitest.config.maxWorkers ?? 1));
  const dir = mkdtempSync(join(tmpdir(), 'bm-shared-anvil-'));
  const silent = pino({ level: 'silent' });
  const chains: DevChain[] = await Promise.all(
    Array.from({ length: slots }, (_, i) => startDevChain(join(dir, String(i + 1)), silent)),
  );
  project.provide(
    'sharedAnvils',
    chains.map((c) => c.options),
  );
  return async () => {
    await Promise.all(chains.map((c) => c.stop()));
    rmSync(dir, { recursive: true, force: true });
  };
}
