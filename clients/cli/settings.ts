import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { type BountyClient, createBountyClient } from '../typescript/index.ts';

/**
 * Where the CLI talks to and as whom. The CLI is a separate program from the service, so it reads
 * its own environment here: `BOUNTY_API_URL` / `BOUNTY_API_KEY` override the file `bounty login`
 * writes, and `--url` overrides both.
 */

export const DEFAULT_API_URL = 'http://127.0.0.1:3000';

export interface StoredLogin {
  api_url?: string;
  api_key?: string;
}

/** A failure of the CLI itself (not an API answer): printed as `error: <code>: <message>`. */
export class CliError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** 2 for usage errors, 1 for everything else. */
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
  }
}

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'bounty', 'config.json');
}

export function readStoredLogin(path = configPath()): StoredLogin {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return {};
  }
  try {
    const parsed = JSON.parse(text) as StoredLogin;
    return typeof parsed === 'object' && parsed !== null ? parsed : {};
  } catch {
    throw new CliError('bad_config', `${path} is not valid JSON; fix it or run \`bounty login\` again.`);
  }
}

/** Writes the login readable by its owner only: the key is as good as a password. */
export function writeStoredLogin(login: StoredLogin, path = configPath()): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, `${JSON.stringify(login, null, 2)}\n`, { mode: 0o600 });
  // The mode above applies only to a new file; an older one may have been wider.
  chmodSync(path, 0o600);
}

export interface Settings {
  apiUrl: string;
  apiKey: string | undefined;
}

export function resolveSettings(flags: { url?: string | undefined }, env = process.env): Settings {
  const stored = readStoredLogin(configPath(env));
  return {
    apiUrl: flags.url || env.BOUNTY_API_URL || stored.api_url || DEFAULT_API_URL,
    apiKey: env.BOUNTY_API_KEY || stored.api_key || undefined,
  };
}

export function clientFor(settings: Settings, opts: { requireKey?: boolean } = {}): BountyClient {
  if (opts.requireKey && !settings.apiKey) {
    throw new CliError('not_logged_in', 'No API key: run `bounty login` or set BOUNTY_API_KEY.');
  }
  return createBountyClient({
    baseUrl: settings.apiUrl,
    apiKey: settings.apiKey,
    userAgent: 'bounty-cli',
  });
}
