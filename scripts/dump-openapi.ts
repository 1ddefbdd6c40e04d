import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app.ts';
import { unavailableChain } from '../src/infra/chain/unavailable-chain.ts';
import { loadConfig } from '../src/infra/config.ts';
import { openDatabase } from '../src/infra/db/client.ts';
import { ensureTemplate } from '../src/infra/db/pglite-template.ts';
import { systemClock } from '../src/lib/clock.ts';

/**
 * Writes the OpenAPI document the service serves at /openapi.json to a file (default
 * openapi.json), from an app built in memory: no port, no data directory, no chain node. The
 * chain claims to be a dev chain so that the dev-only routes (the faucet) are documented too;
 * nothing here ever calls it. The database boots from the build's migrated template (written to
 * dist/ first if the build has not), not through initdb and every migration: 4.2 s of CPU instead
 * of 6.8 s.
 */
const out = process.argv[2] ?? 'openapi.json';
const template = await ensureTemplate(fileURLToPath(new URL('../dist', import.meta.url)));
const database = await openDatabase({ kind: 'pglite-memory', loadDataDir: template });
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
