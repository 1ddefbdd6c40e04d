import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';

/**
 * A secret for the embedded development setup, created once in DATA_DIR (mode 0600) so that
 * `npm start` needs no configuration. Real deployments pass the variable named in the log instead.
 */
export function devSecret(dataDir: string, file: string, variable: string, log: FastifyBaseLogger): string {
  const path = join(dataDir, file);
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  const secret = randomBytes(32).toString('hex');
  writeFileSync(path, `${secret}\n`, { mode: 0o600 });
  log.warn({ path }, `created a development secret; set ${variable} in production`);
  return secret;
}
