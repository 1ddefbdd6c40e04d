import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { mnemonicToAccount } from 'viem/accounts';

/**
 * Anvil's built-in test mnemonic. Its keys are public and funded on every anvil chain, which is
 * exactly why they are fit for the embedded dev chain and for nothing else.
 */
export const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';

export const anvilAccount = (index: number) => mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: index });

export interface AnvilOptions {
  /** File the chain is loaded from at start (when it exists) and dumped to periodically and on stop. */
  statePath?: string;
  stateIntervalSeconds?: number;
  chainId?: number;
  /** Seconds between blocks; without it anvil mines one block per transaction. */
  blockTime?: number;
}

export interface Anvil {
  rpcUrl: string;
  process: ChildProcess;
  /** Ends anvil and waits for its exit, so a state file has been written when this resolves. */
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 20_000;
const STOP_GRACE_MS = 5_000;
// Anvil logs every RPC call; only the tail is worth quoting in an error.
const OUTPUT_TAIL_CHARS = 8_000;

/** The binary npm installed for this platform (the @foundry-rs/anvil wrapper's optional dependency). */
export function anvilBinaryPath(): string {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const pkg = `@foundry-rs/anvil-${process.platform}-${arch}`;
  let pkgJson: string;
  try {
    pkgJson = createRequire(import.meta.url).resolve(`${pkg}/package.json`);
  } catch {
    throw new Error(
      `anvil binary package ${pkg} is not installed; run npm install (it is an optional dependency)`,
    );
  }
  return join(dirname(pkgJson), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
}

function anvilArgs(opts: AnvilOptions): string[] {
  const args = ['--host', '127.0.0.1', '--port', '0'];
  if (opts.chainId !== undefined) args.push('--chain-id', String(opts.chainId));
  if (opts.blockTime !== undefined) args.push('--block-time', String(opts.blockTime));
  if (opts.statePath !== undefined) {
    args.push('--state', opts.statePath, '--state-interval', String(opts.stateIntervalSeconds ?? 30));
  }
  return args;
}

function waitForExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Starts anvil on a free loopback port and resolves once it accepts RPC calls. */
export function startAnvil(opts: AnvilOptions = {}): Promise<Anvil> {
  const child = spawn(anvilBinaryPath(), anvilArgs(opts), { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const record = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_TAIL_CHARS);
  };
  // Both pipes are drained for anvil's whole life: a full pipe would block it mid-request.
  child.stdout?.on('data', record);
  child.stderr?.on('data', record);

  // An anvil outliving its parent would hold its port and state file; a crash of the parent skips stop().
  const killOnParentExit = () => child.kill('SIGKILL');
  process.once('exit', killOnParentExit);

  const stop = async () => {
    process.off('exit', killOnParentExit);
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = waitForExit(child);
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  };

  return new Promise((resolve, reject) => {
    const failStart = (why: string) => {
      cleanup();
      void stop();
      reject(new Error(`anvil ${why}\n--- anvil output ---\n${output}`));
    };
    const onData = () => {
      const match = /Listening on 127\.0\.0\.1:(\d+)\s/.exec(output);
      if (!match) return;
      cleanup();
      resolve({ rpcUrl: `http://127.0.0.1:${match[1]}`, process: child, stop });
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      failStart(`exited before listening (code ${code}, signal ${signal})`);
    const onError = (err: Error) => failStart(`could not be started: ${err.message}`);
    const timer = setTimeout(
      () => failStart(`did not listen within ${START_TIMEOUT_MS / 1000} s`),
      START_TIMEOUT_MS,
    );
    function cleanup() {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      child.off('error', onError);
    }
    // Registered after `record`, so the output already holds this chunk when it is matched.
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
    child.once('error', onError);
  });
}
