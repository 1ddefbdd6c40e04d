import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { anvilBinaryPath } from '../src/infra/chain/anvil.ts';
import {
  DevChainInUseError,
  identityOf,
  stopStaleAnvil,
  writeRecord,
} from '../src/infra/chain/dev-chain-record.ts';
import { killHard } from './helpers/crash.ts';
import { createScratchDatabase } from './helpers/database.ts';
import { runToExit, startServer } from './helpers/process.ts';

/** Pids of the live anvil processes serving this state file, found in /proc (any parent). */
function anvilsOn(statePath: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (argv[0]?.endsWith('anvil') && argv.includes(statePath)) pids.push(Number(entry));
  }
  return pids;
}

async function eventually(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

// The real entry point, as `npm start` runs it: PGlite in DATA_DIR (or PostgreSQL for TEST_DB=postgres).
// Each test starts the real server (with its embedded anvil) once or twice: seconds each on an idle
// machine, several times that while CI runs everything else beside it.
describe('the server process', { timeout: 120_000 }, () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const d = mkdtempSync(join(tmpdir(), 'bm-proc-'));
    dirs.push(d);
    return d;
  };
  const drops: (() => Promise<void>)[] = [];
  /** Anvil processes the tests saw: any still running after the tests is killed. */
  const strays: number[] = [];
  afterAll(async () => {
    for (const pid of strays) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone, as it should be.
      }
    }
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

  describe.skipIf(!existsSync('/proc/self/cmdline'))('the embedded dev chain', () => {
    it('dies with the server when the server is killed with SIGKILL', async () => {
      const dataDir = tempDir();
      const statePath = join(dataDir, 'chain', 'anvil-state.json');
      const server = await startServer({ DATA_DIR: dataDir, ...(await dbEnv()) });
      const anvils = anvilsOn(statePath);
      strays.push(...anvils);
      expect(anvils).toHaveLength(1);
      await killHard(server);
      expect(await eventually(() => anvilsOn(statePath).length === 0, 5_000)).toBe(true);
    });

    it('refuses to start a dev chain whose recorded service still runs, and signals nothing', async () => {
      const chainDir = join(tempDir(), 'chain');
      mkdirSync(chainDir);
      const statePath = join(chainDir, 'anvil-state.json');
      // Another live service (PostgreSQL mode has no directory lock) and its anvil, as stand-ins.
      const [owner, anvil] = [spawn('sleep', ['30']), spawn('sleep', ['30'])];
      try {
        const recordPath = join(chainDir, 'anvil.pid');
        writeRecord(recordPath, {
          anvil: identityOf(anvil.pid as number),
          owner: identityOf(owner.pid as number),
          statePath,
        });
        await expect(stopStaleAnvil(recordPath, statePath, pino({ level: 'silent' }))).rejects.toThrow(
          DevChainInUseError,
        );
        expect(anvil.exitCode === null && anvil.signalCode === null).toBe(true);
      } finally {
        owner.kill('SIGKILL');
        anvil.kill('SIGKILL');
      }
    });

    it('stops an anvil an earlier run left on the data directory before starting its own', async () => {
      const dataDir = tempDir();
      const chainDir = join(dataDir, 'chain');
      mkdirSync(chainDir);
      const statePath = join(chainDir, 'anvil-state.json');
      // What a service killed before its anvil could follow leaves behind: anvil on the state file
      // with no parent of ours, and the pid file naming it.
      const stale = spawn(anvilBinaryPath(), ['--port', '0', '--state', statePath], {
        stdio: 'ignore',
        detached: true,
      });
      const stalePid = stale.pid as number;
      strays.push(stalePid);
      expect(await eventually(() => anvilsOn(statePath).includes(stalePid), 5_000)).toBe(true);
      const startedAt = readFileSync(`/proc/${stalePid}/stat`, 'utf8').split(') ')[1]?.split(' ')[19];
      writeRecord(join(chainDir, 'anvil.pid'), {
        anvil: { pid: stalePid, startedAt: startedAt ?? null },
        // The service that started it has exited: no process has this start time.
        owner: { pid: process.pid, startedAt: '0' },
        statePath,
      });

      const server = await startServer({ DATA_DIR: dataDir, ...(await dbEnv()) });
      try {
        const anvils = anvilsOn(statePath);
        strays.push(...anvils);
        expect(anvils).toHaveLength(1);
        expect(anvils).not.toContain(stalePid);
        expect(server.output()).toContain('stopping the dev chain anvil an earlier run left running');
      } finally {
        server.child.kill('SIGTERM');
        await server.exited;
      }
    });
  });
});
