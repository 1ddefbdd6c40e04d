import { defineConfig } from 'vitest/config';
import SlowestFirst from './test/setup/sequencer.ts';

/**
 * Four kinds of test file, each run where it says something:
 * - unit: no database, no process (`test/**\/*.test.ts`);
 * - chain: the contracts on a private anvil (`*.chain.test.ts`);
 * - database (`*.int.test.ts`): the service in process against a database; what a database does
 *   differently shows here, so these run on embedded PGlite and again on PostgreSQL when
 *   TEST_DATABASE_URL is set;
 * - wire (by file name: `*.chain.int`, `*.browser.int`, `*.wire.int`): real processes, the chain, git, a browser, the end-to-end journey. What
 *   they add is the wire, not the database, so they run once: on PostgreSQL when it is configured
 *   (where concurrency is real), else on PGlite. The server's own start-up on each database stays
 *   in process.int.test.ts, which runs in the database projects. Wire files share one anvil per
 *   worker slot (test/setup/shared-anvils.ts) and revert it between files.
 */
const WIRE = ['test/**/*.chain.int.test.ts', 'test/**/*.browser.int.test.ts', 'test/**/*.wire.int.test.ts'];
const INT = ['test/**/*.int.test.ts'];
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const databases = [
  { name: 'pglite', env: { TEST_DB: 'pglite' } },
  ...(onPostgres ? [{ name: 'postgres', env: { TEST_DB: 'postgres' } }] : []),
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    // Three workers on 2 cores: files spend much of their time waiting (on anvil, PostgreSQL,
    // child processes, timers). Measured on clean .ci/run runs: 2 workers 272 s and 3 244 s (an
    // earlier suite); today's suite 364 s with 3 and 361 s with 4 (the static checks share the
    // cores), no gain worth the extra contention. Again on 2026-11-29 (tenth session, a slower
    // box): 3 workers 322-367 s, 4 workers 344 s, and the wire project as its own group
    // (`sequence.groupOrder`) with 4 workers 372 s: the suite is CPU-bound from the first minute.
    maxWorkers: 3,
    hookTimeout: 60_000,
    // expect.poll waits up to 10 s (its own default is 1 s): on a busy 2-core box a live update
    // through the event stream took longer than 1 s (web-public.browser, CI run of 2026-11-28). A
    // poll that holds returns at once, so only a failure waits the whole time.
    expect: { poll: { timeout: 10_000 } },
    // A worker imports the app once and runs its files one after another in that module graph
    // (each file still builds its own app, database and chain snapshot), instead of importing the
    // whole app again for every file.
    isolate: false,
    // Longest files first within each project: see test/setup/sequencer.ts.
    sequence: { sequencer: SlowestFirst },
    // The ten slowest files are printed at the end of every run.
    reporters: ['default', './test/reporters/slowest-files.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...INT, 'test/**/*.chain.test.ts'],
        },
      },
      { extends: true, test: { name: 'chain', include: ['test/**/*.chain.test.ts'] } },
      ...databases.map((d) => ({
        extends: true as const,
        test: {
          name: d.name,
          include: INT,
          exclude: WIRE,
          env: d.env,
          // Drops the spare PostgreSQL databases the workers leave (test/helpers/database.ts).
          globalSetup: ['./test/setup/pg-orphans.ts'],
        },
      })),
      {
        extends: true,
        test: {
          name: 'wire',
          include: WIRE,
          env: { TEST_DB: onPostgres ? 'postgres' : 'pglite' },
          globalSetup: ['./test/setup/shared-anvils.ts', './test/setup/pg-orphans.ts'],
        },
      },
    ],
  },
});
