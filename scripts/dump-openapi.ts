import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { buildApp } from '../src/app.ts';
import { unavailableChain } from '../src/infra/chain/unavailable-chain.ts';
import { loadConfig } from '../src/infra/config.ts';
import { openDatabase } from '../src/infra/db/client.ts';
import { systemClock } from '../src/lib/clock.ts';

/**
 * Writes the OpenAPI document the service serves at /openapi.json to a file (default
 * openapi.json), from an app built in memory: no port, no data directory, no chain node. The
 * chain claims to be a dev chain so that the dev-only routes (the faucet) are documented too;
 * nothing here ever calls it.
 */
const out = process.argv[2] ?? 'openapi.json';
const database = await openDatabase({ kind: 'pglite-memory' });
const chain = {
  ...unavailableChain,
  info: {
    id: 31337,
    name: 'dev',
    publicRpcUrl: null,
    explorerUrl: null,
    factoryAddress: '0x0000000000000000000000000000000000000001',
    operatorAddress: '0x0000000000000000000000000000000000000002',
    payoutSpenderAddress: '0x0000000000000000000000000000000000000003',
    treasuryAddress: '0x0000000000000000000000000000000000000004',
    devChain: true,
  },
};
const app = await buildApp({ database, chain, clock: systemClock, config: loadConfig({}) });
await app.ready();
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(app.swagger(), null, 2)}\n`);
await app.close();
await database.close();
console.log(`wrote ${out}`);
