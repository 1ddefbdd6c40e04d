import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds each of the slowest files took on CI (the list the run prints at its end). Within a
 * project, files run longest first, so that both workers finish together instead of one running
 * a long file alone at the end; a file not listed weighs its size (1 s per 10 KB). Projects stay
 * together (a worker reuses its module graph only within a project; mixing them measured 111 s
 * of imports instead of 31 s), the one with the longest files first. Update the table when the
 * printed list changes much.
 */
const MEASURED: Record<string, number> = {
  'process.int.test.ts': 40,
  'payouts-crash.chain.int.test.ts': 37,
  'payouts-liveness.int.test.ts': 30,
  'payouts-interleave.chain.int.test.ts': 32,
  // Not yet measured on CI: 35-56 s locally where the payouts model takes 50 s.
  'wallets-interleave.chain.int.test.ts': 30,
  'operations.int.test.ts': 28,
  'reviews.int.test.ts': 26,
  'bounties.int.test.ts': 25,
  'web-console.browser.int.test.ts': 22,
  'payouts.chain.int.test.ts': 20,
  'web-public.browser.int.test.ts': 17,
  'cli.chain.int.test.ts': 13,
  'cli.wire.int.test.ts': 13,
  'payouts-model.chain.int.test.ts': 12,
};
const PROJECT_ORDER = ['wire', 'pglite', 'postgres', 'chain', 'unit'];

const rank = (spec: TestSpecification) => {
  const i = PROJECT_ORDER.indexOf(spec.project.name);
  return i === -1 ? PROJECT_ORDER.length : i;
};
const weight = (spec: TestSpecification) =>
  MEASURED[basename(spec.moduleId)] ?? statSync(spec.moduleId).size / 10_000;

export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => rank(a) - rank(b) || weight(b) - weight(a));
  }
}
