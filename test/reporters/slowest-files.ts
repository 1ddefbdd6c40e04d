import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints the ten slowest test files (per project) when the run ends, so a slow CI names its
 * causes. A file's time is its import plus every test and hook in it, as Vitest measured it.
 */
export default class SlowestFiles implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const rows = modules
      .map((m) => {
        const d = m.diagnostic();
        return {
          ms: d.collectDuration + d.setupDuration + d.duration,
          name: `${m.relativeModuleId} [${m.project.name}]`,
        };
      })
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 10);
    if (rows.length === 0) return;
    const total = modules.reduce((s, m) => {
      const d = m.diagnostic();
      return s + d.collectDuration + d.setupDuration + d.duration;
    }, 0);
    const lines = rows.map((r) => `  ${(r.ms / 1000).toFixed(1).padStart(7)} s  ${r.name}`);
    process.stdout.write(
      `\nSlowest test files (of ${modules.length}, ${(total / 1000).toFixed(0)} s of file time in all):\n${lines.join('\n')}\n`,
    );
  }
}
