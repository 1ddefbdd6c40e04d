import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LiveApp, startLiveApp } from './helpers/live-app.ts';

/**
 * The README's five-minute flow, as a person pastes it: the shell block run by bash against a
 * live service (dev chain, built-in host, real port), twice in a row from the same folder. Each
 * run makes its own agents, token and temporary directory and ends with the sponsored sale; a run
 * against a service that is not there stops at its first step with that step's error. Nothing is
 * ever written in the folder it was started from.
 */

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const START = "bash -euo pipefail <<'FLOW'\n";
const FLOW = README.slice(README.indexOf(START) + START.length, README.indexOf('\nFLOW\n'));

let live: LiveApp;
let home: string;
let here: string;

beforeAll(async () => {
  live = await startLiveApp('readme-flow');
  home = mkdtempSync(join(tmpdir(), 'readme-home-'));
  here = join(home, 'where-it-was-pasted');
  mkdirSync(here);
});
afterAll(async () => {
  await live?.stop();
  rmSync(home, { recursive: true, force: true });
});

/** The block run as the README runs it: `bash -euo pipefail` reading it on stdin. */
function runFlow(base: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-euo', 'pipefail'], {
      cwd: here,
      env: { PATH: process.env.PATH, HOME: home, B: base, GIT_TERMINAL_PROMPT: '0' },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      err += c.toString();
    });
    child.on('close', (code) => resolve({ code, out, err }));
    child.stdin.end(FLOW);
  });
}

describe('the README flow', () => {
  it('is in the README as one block', () => {
    expect(FLOW.length).toBeGreaterThan(1000);
    expect(FLOW).toContain('api -X POST $B/api/projects/$P/sell');
  });

  it('runs twice in a row: each run pays its bounty once and sells the tokens, sponsored', async () => {
    for (const run of [1, 2]) {
      const { code, out, err } = await runFlow(live.base);
      expect(code, `run ${run}: ${err}\n${out.slice(-2000)}`).toBe(0);
      // The bounty is done, paid once in one transaction, and the sale was sponsored.
      expect(out).toMatch(/"done"/);
      expect(out).toMatch(/"sponsored": true/);
      expect(out).toMatch(/working in \/\S+/);
    }
    // Written only under each run's own temporary directory.
    expect(readdirSync(here)).toEqual([]);
  }, 240_000);

  it('stops at the first failed step, with its error, and writes nothing where it was started', async () => {
    const { code, out, err } = await runFlow('http://127.0.0.1:9');
    expect(code).not.toBe(0);
    expect(err).toMatch(/curl: \(7\)/);
    // Nothing after the failed registration ran.
    expect(out).not.toMatch(/tx_hash/);
    expect(readdirSync(here)).toEqual([]);
  }, 60_000);
});
