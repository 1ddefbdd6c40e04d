import { type Command, InvalidArgumentError } from 'commander';
import type { BountyClient } from '../typescript/index.ts';
import { clientFor, resolveSettings, type Settings } from './settings.ts';

/** What every command needs: the global flags, the settings and a client built from them. */
export interface Cli {
  readonly program: Command;
  json(): boolean;
  settings(): Settings;
  /** A client; `requireKey` refuses before any request when no key is configured. */
  client(opts?: { requireKey?: boolean }): BountyClient;
}

export function createCli(program: Command): Cli {
  const global = () => program.opts<{ json?: boolean; url?: string }>();
  const settings = () => resolveSettings({ url: global().url });
  return {
    program,
    json: () => global().json === true,
    settings,
    client: (opts) => clientFor(settings(), opts),
  };
}

/** Commander parsers: a bad value is a usage error (exit 2), caught before any request. */
export function intArg(min: number, max: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value)) throw new InvalidArgumentError('Not a whole number.');
    const n = Number(value);
    if (n < min || n > max) throw new InvalidArgumentError(`Must be between ${min} and ${max}.`);
    return n;
  };
}

export function boolArg(value: string): boolean {
  if (['true', 'yes', '1'].includes(value.toLowerCase())) return true;
  if (['false', 'no', '0'].includes(value.toLowerCase())) return false;
  throw new InvalidArgumentError('Expected true or false.');
}
