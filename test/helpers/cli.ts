import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll } from 'vitest';

const run = promisify(execFile);

/** The launcher `npx bounty` runs. */
export const BOUNTY_BIN = join(import.meta.dirname, '../../bin/bounty.mjs');

/**
 * `bounty mcp` as an agent host launches it: configured by its environment alone (an empty config
 * directory, so no stored login), its stderr kept apart from the protocol on stdout.
 */
export function bountyMcpTransport(env: { configHome: string; apiUrl: string; apiKey: string }) {
  return new StdioClientTransport({
    command: process.execPath,
    args: [BOUNTY_BIN, 'mcp'],
    env: {
      PATH: process.env.PATH ?? '',
      XDG_CONFIG_HOME: env.configHome,
      BOUNTY_API_URL: env.apiUrl,
      BOUNTY_API_KEY: env.apiKey,
    },
    stderr: 'pipe',
  });
}

let bundling: Promise<unknown> | undefined;
/**
 * Bundles the CLI when a source changed since the last bundle, as a build would (after `npm
 * install` it is current: a few stat calls): the launcher then runs the bundle instead of tsx on
 * every spawn. Without one (say a source does not compile) the launcher runs the sources.
 */
export function ensureCliBundle(): Promise<unknown> {
  const lib = pathToFileURL(join(import.meta.dirname, '../../scripts/lib/cli-bundle.mjs')).href;
  bundling ??= import(lib)
    .then((m: { bundleCli(o: { ifStale: boolean }): Promise<unknown> }) => m.bundleCli({ ifStale: true }))
    .finally(() => {
      bundling = undefined;
    });
  return bundling;
}

/**
 * The environment a user's shell would give the CLI: the API URL, maybe a key, and a config
 * directory of the test's own (never the machine's login, never a key the developer exported).
 */
export function cliEnv(apiUrl: string, configHome: string, key?: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, BOUNTY_API_URL: apiUrl, XDG_CONFIG_HOME: configHome };
  delete env.BOUNTY_API_KEY;
  delete env.NO_COLOR;
  if (key) env.BOUNTY_API_KEY = key;
  return env;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node bin/bounty.mjs <args>` (stdin: `input`, then closed); returns the exit code and both
 * streams, whatever the code. Never synchronous: the service under test runs in this process.
 */
export async function runBounty(args: string[], env: NodeJS.ProcessEnv, input = ''): Promise<CliResult> {
  await ensureCliBundle();
  const pending = run(process.execPath, [BOUNTY_BIN, ...args], { env, timeout: 60_000 });
  pending.child.stdin?.end(input);
  try {
    const { stdout, stderr } = await pending;
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/**
 * Config directories of the file's own, each new one empty (a user who never logged in), under a
 * temporary directory made before the file's tests and removed after them.
 */
export function configDirs(): () => string {
  let tmp = '';
  let n = 0;
  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'cli-int-'));
  });
  afterAll(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });
  return () => join(tmp, `config-${++n}`);
}
