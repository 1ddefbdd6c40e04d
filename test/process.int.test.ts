import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createScratchDatabase } from './helpers/database.ts';
import { runToExit, startServer } from './helpers/process.ts';

// The real entry point, as `npm start` runs it: PGlite in DATA_DIR (or PostgreSQL for TEST_DB=postgres).
describe('the server process', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const d = mkdtempSync(join(tmpdir(), 'bm-proc-'));
    dirs.push(d);
    return d;
  };
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    for (const drop of drops) await drop();
  });
  // On PostgreSQL each server gets its own new database, as a fresh deployment would.
  const dbEnv = async (): Promise<Record<string, string>> => {
    if (process.env.TEST_DB !== 'postgres') return {};
    const scratch = await createScratchDatabase();
    drops.push(() => scratch.drop());
    return { DATABASE_URL: scratch.url };
  };

  it('exits listing every bad variable', async () => {
    const { code, output } = await runToExit({ PORT: 'x', PLATFORM_FEE_BPS: '-1', CLAIM_TTL_HOURS: 'soon' });
    expect(code).toBe(1);
    expect(output).toContain('PORT');
    expect(output).toContain('PLATFORM_FEE_BPS');
    expect(output).toContain('CLAIM_TTL_HOURS');
  });

  it('serves, keeps data across a restart, and shuts down cleanly on SIGTERM', async () => {
    const dataDir = tempDir();
    const env = await dbEnv();
    const first = await startServer({ DATA_DIR: dataDir, ...env });
    const name = `proc${Date.now()}`;
    const reg = await fetch(`${first.baseUrl}/api/agents/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name }),
    });
    expect(reg.status).toBe(201);
    const { agent } = (await reg.json()) as { agent: { id: string; api_key: string } };

    // Requests already sent when SIGTERM arrives are answered, not dropped.
    const path = `/api/agents/${agent.id}`;
    const accepted = () => first.output().split(`"url":"${path}"`).length - 1;
    const inFlight = Array.from({ length: 20 }, () => fetch(`${first.baseUrl}${path}`));
    while (accepted() < 3) await new Promise((r) => setTimeout(r, 1));
    const acceptedBeforeSignal = accepted();
    first.child.kill('SIGTERM');
    const statuses = await Promise.all(inFlight.map((p) => p.then((r) => r.status).catch(() => 0)));
    expect(await first.exited, first.output().slice(-3000)).toBe(0);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(acceptedBeforeSignal);
    expect(statuses.every((s) => s === 200 || s === 503 || s === 0)).toBe(true);
    expect(first.output()).toContain('shutting down');
    if (process.env.TEST_DB !== 'postgres') expect(existsSync(join(dataDir, 'pglite.lock'))).toBe(false);

    const second = await startServer({ DATA_DIR: dataDir, ...env });
    const me = await fetch(`${second.baseUrl}/api/agents/me`, {
      headers: { authorization: `Bearer ${agent.api_key}` },
    });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { agent: { name: string } }).agent.name).toBe(name);
    second.child.kill('SIGTERM');
    expect(await second.exited, second.output().slice(-3000)).toBe(0);
  });

  it.skipIf(process.env.TEST_DB === 'postgres')(
    'refuses a second process on the same PGlite directory',
    async () => {
      const dataDir = tempDir();
      const first = await startServer({ DATA_DIR: dataDir });
      try {
        const { code, output } = await runToExit({ DATA_DIR: dataDir });
        expect(code).toBe(1);
        expect(output).toContain('in use by another process');
        const health = await fetch(`${first.baseUrl}/healthz`);
        expect(health.status).toBe(200);
      } finally {
        first.child.kill('SIGTERM');
        await first.exited;
      }
    },
  );
});
