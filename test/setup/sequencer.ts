import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds each of the slowest files took on CI (the list the run prints at its end; every file's
 * time is in test-artifacts/file-times.json). Within a project, files run longest first, so that
 * the workers finish together instead of one running a long file alone at the end; a file not
 * listed weighs its size (1 s per 10 KB). Projects stay together (a worker reuses its module graph
 * only within a project; mixing them measured 111 s of imports instead of 31 s), the one with the
 * longest files first. Update the table when the printed list changes much. From a clean .ci/run
 * (the first nine) and, scaled to it, a run beside other load; a name counts for every project.
 */
const MEASURED: Record<string, number> = {
  'payouts-crash.chain.int.test.ts': 144,
  'wallets-interleave.chain.int.test.ts': 68,
  'payouts-interleave.chain.int.test.ts': 64,
  'payouts.chain.int.test.ts': 52,
  'process.int.test.ts': 42,
  'operations.int.test.ts': 38,
  'web-console.browser.int.test.ts': 37,
  'cli.chain.int.test.ts': 30,
  'payouts-model.chain.int.test.ts': 29,
  'payouts-liveness.int.test.ts': 28,
  'cli.wire.int.test.ts': 26,
  'web-public.browser.int.test.ts': 24,
  'bounties.int.test.ts': 22,
  'cli-flow.chain.int.test.ts': 21,
  'client-package.wire.int.test.ts': 21,
  'reviews.int.test.ts': 20,
  'claims.int.test.ts': 18,
  'boundaries.test.ts': 16,
  'client-schema.test.ts': 10,
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
