import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { buildApp } from '../src/app.ts';
import type { Chain } from '../src/infra/chain/chain.ts';
import { unavailableChain } from '../src/infra/chain/unavailable-chain.ts';
import { loadConfig } from '../src/infra/config.ts';
import { openDatabase } from '../src/infra/db/client.ts';
import { unavailableRepoHost } from '../src/infra/repo-host/repo-host.ts';
import { systemClock } from '../src/lib/clock.ts';

/**
 * Generates `clients/typescript/schema.ts` from the app's own OpenAPI document, so the typed client
 * cannot drift from the route schemas. The app is built in-process (in-memory database, no chain,
 * no repository host) and never listens. `test/client.int.test.ts` regenerates in memory and fails
 * when the committed file is stale.
 */

export const SCHEMA_PATH = join(dirname(fileURLToPath(import.meta.url)), '../clients/typescript/schema.ts');

const HEADER = `/**
 * GENERATED FILE: do not edit. \`npm run client:generate\` writes it from the app's OpenAPI document
 * (scripts/generate-client.ts, openapi-typescript); test/client.int.test.ts fails when it is stale.
 */

`;

/**
 * A chain that refuses every call but says it is the dev chain: routes that exist only there (the
 * faucet) are part of the document the client is generated from. Nothing is ever called on it.
 */
const documentingChain: Chain = {
  ...unavailableChain,
  info: {
    id: 31337,
    name: 'documentation',
    publicRpcUrl: null,
    explorerUrl: null,
    factoryAddress: null,
    operatorAddress: null,
    payoutSpenderAddress: null,
    treasuryAddress: null,
    devChain: true,
  },
};

/** The OpenAPI document exactly as `GET /openapi.json` serves it. */
export async function openApiDocument(): Promise<OpenAPI3> {
  const database = await openDatabase({ kind: 'pglite-memory' });
  try {
    const app = await buildApp({
      database,
      chain: documentingChain,
      clock: systemClock,
      config: loadConfig({}),
      repoHost: unavailableRepoHost,
      vault: null,
    });
    try {
      await app.ready();
      return app.swagger() as unknown as OpenAPI3;
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}

/**
 * Fastify's swagger marks a query parameter with a default (`limit`, `offset`) as required, because
 * the validator fills it in; to a caller it is optional, and the client must not demand it.
 */
function defaultedParametersOptional(doc: OpenAPI3): OpenAPI3 {
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item as Record<string, { parameters?: unknown[] }>)) {
      for (const p of op?.parameters ?? []) {
        const param = p as { in?: string; required?: boolean; schema?: { default?: unknown } };
        if (param.in === 'query' && param.schema?.default !== undefined) param.required = false;
      }
    }
  }
  return doc;
}

/** The text of `schema.ts` for the current route schemas. */
export async function renderClientSchema(): Promise<string> {
  const ast = await openapiTS(defaultedParametersOptional(await openApiDocument()));
  return HEADER + astToString(ast);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = await renderClientSchema();
  writeFileSync(SCHEMA_PATH, text);
  console.log(`wrote ${SCHEMA_PATH} (${text.length} characters)`);
}
