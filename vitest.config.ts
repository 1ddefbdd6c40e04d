import { defineConfig } from 'vitest/config';

// Integration tests run once on embedded PGlite and, when TEST_DATABASE_URL is set, again on PostgreSQL.
const intFiles = ['test/**/*.int.test.ts'];
const databases = [
  { name: 'pglite', env: { TEST_DB: 'pglite' } },
  ...(process.env.TEST_DATABASE_URL ? [{ name: 'postgres', env: { TEST_DB: 'postgres' } }] : []),
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    // Vitest's default on 2 cores is one worker; many files mostly wait (on anvil, PostgreSQL,
    // child processes), so two keep both cores busy.
    maxWorkers: 2,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...intFiles, 'test/**/*.chain.test.ts'],
        },
      },
      { extends: true, test: { name: 'chain', include: ['test/**/*.chain.test.ts'] } },
      ...databases.map((d) => ({
        extends: true as const,
        test: { name: d.name, include: intFiles, env: d.env },
      })),
    ],
  },
});
