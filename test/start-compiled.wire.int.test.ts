import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase } from './helpers/database.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
};

// `npm start` as a user runs it: the compiled JavaScript (built by `npm install`, rebuilt by
// `prestart` when src/ changed), no TypeScript loader.
describe('the compiled entry point', () => {
  const dirs: string[] = [];
  const drops: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    // What prestart does; a no-op when dist/ is up to date (the usual case after `npm install`).
    await promisify(execFile)(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: root });
  }, 120_000);
  afterAll(async () => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    for (const drop of drops) await drop();
  });

  it('is what npm start runs, with no TypeScript loader', () => {
    expect(pkg.scripts.start).toBe('node dist/main.js');
    expect(pkg.scripts.prestart).toContain('scripts/build.mjs --if-stale');
  });

  it('is one bundled entry: viem, TypeBox and drizzle-orm inside, CommonJS and PGlite imported', () => {
    const entry = readFileSync(join(root, 'dist/main.js'), 'utf8');
    for (const inside of ['viem', 'typebox', 'drizzle-orm']) {
      expect(entry, inside).not.toMatch(new RegExp(`^import\\b[^\\n]*from ["']${inside}(/[^"']*)?["']`, 'm'));
    }
    expect(entry).toMatch(/^import\b[^\n]*from ["']fastify["']/m);
    expect(entry).toMatch(/["']@electric-sql\/pglite["']/);
    // Each compiled module keeps its own file's URL, so what it reads beside itself is found.
    expect(entry).toContain('new URL("infra/db/pglite-template.js", import.meta.url)');
  });

  // A first start migrates and deploys the dev chain's factory: on a busy machine, tens of seconds.
  it('starts, serves the API, pages and assets, reports ready, and stops on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bm-dist-'));
    dirs.push(dataDir);
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
    };
    if (process.env.TEST_DB === 'postgres') {
      const scratch = await createScratchDatabase();
      drops.push(() => scratch.drop());
      env.DATABASE_URL = scratch.url;
    }
    const child = spawn(process.execPath, ['dist/main.js'], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const base = await new Promise<string>((resolve, reject) => {
        const onData = (chunk: Buffer) => {
          out += chunk.toString();
          const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (m) resolve(m[1] as string);
        };
        child.stdout.on('data', onData);
        child.stderr.on('data', onData);
        void exited.then((code) => reject(new Error(`exited (${code}) before listening:\n${out}`)));
      });
      // No module of the process came through a TypeScript loader.
      const argv = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0');
      expect(argv).not.toContain('tsx');
      expect((await fetch(`${base}/livez`)).status).toBe(200);
      const ready = await fetch(`${base}/readyz`);
      expect(ready.status, await ready.clone().text()).toBe(200);
      // Migrations ran (a registration writes), templates and assets are found next to the build.
      const reg = await fetch(`${base}/api/agents/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: `dist${Date.now()}` }),
      });
      expect(reg.status).toBe(201);
      const board = await fetch(`${base}/`);
      expect(board.status).toBe(200);
      expect(await board.text()).toContain('/assets/app.css');
      for (const asset of ['/assets/app.css', '/assets/live-board.js', '/docs/']) {
        expect((await fetch(`${base}${asset}`)).status, asset).toBe(200);
      }
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited, out.slice(-2000)).toBe(0);
  }, 120_000);
});
