import { mkdirSync, writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints the ten slowest test files (per project) when the run ends, so a slow CI names its
 * causes. A file's time is its import plus every test and hook in it, as Vitest measured it. Every
 * file's time also goes to test-artifacts/file-times.json, the source of test/setup/sequencer.ts's
 * table.
 */
export default class SlowestFiles implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const all = modules
      .map((m) => {
        const d = m.diagnostic();
        return {
          ms: d.collectDuration + d.setupDuration + d.duration,
          name: `${m.relativeModuleId} [${m.project.name}]`,
        };
      })
      .sort((a, b) => b.ms - a.ms);
    if (all.length === 0) return;
    const rows = all.slice(0, 10);
    const total = all.reduce((s, r) => s + r.ms, 0);
    const lines = rows.map((r) => `  ${(r.ms / 1000).toFixed(1).padStart(7)} s  ${r.name}`);
    process.stdout.write(
      `\nSlowest test files (of ${modules.length}, ${(total / 1000).toFixed(0)} s of file time in all):\n${lines.join('\n')}\n`,
    );
    mkdirSync('test-artifacts', { recursive: true });
    const seconds = Object.fromEntries(all.map((r) => [r.name, Math.round(r.ms / 100) / 10]));
    writeFileSync('test-artifacts/file-times.json', `${JSON.stringify(seconds, null, 2)}\n`);
  }
}
