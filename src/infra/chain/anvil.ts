import { type ChildProcess, spawn } from 'node:child_process';
import { pbkdf2Sync } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { HDKey, hdKeyToAccount } from 'viem/accounts';

/**
 * Anvil's built-in test mnemonic. Its keys are public and funded on every anvil chain, which is
 * exactly why they are fit for the embedded dev chain and for nothing else.
 */
export const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';

type AnvilAccount = ReturnType<typeof hdKeyToAccount>;
let anvilRoot: HDKey | undefined;
const anvilAccounts = new Map<number, AnvilAccount>();

/**
 * The anvil key at `index` (`m/44'/60'/0'/0/index`), as viem's `mnemonicToAccount` derives it. The
 * BIP-39 seed is node's native PBKDF2 (viem's is JavaScript: ~85 ms of CPU per call) and the root
 * key is derived once per process; the dev chain and the tests ask for the same keys again and again.
 */
export function anvilAccount(index: number): AnvilAccount {
  let account = anvilAccounts.get(index);
  if (!account) {
    anvilRoot ??= HDKey.fromMasterSeed(
      pbkdf2Sync(ANVIL_MNEMONIC.normalize('NFKD'), 'mnemonic', 2048, 64, 'sha512'),
    );
    account = hdKeyToAccount(anvilRoot, { addressIndex: index });
    anvilAccounts.set(index, account);
  }
  return account;
}

export interface AnvilOptions {
  /** File the chain is loaded from at start (when it exists) and dumped to periodically and on stop. */
  statePath?: string;
  stateIntervalSeconds?: number;
  chainId?: number;
  /** Seconds between blocks; without it anvil mines one block per transaction. */
  blockTime?: number;
  /** The first block's base fee in wei (anvil's own default is 1 gwei). */
  baseFeePerGas?: bigint;
}

export interface Anvil {
  rpcUrl: string;
  /** The supervisor (see SUPERVISOR); it exits once anvil has. */
  process: ChildProcess;
  /** Anvil's own process id (the supervisor's child), for the dev chain's pid file. */
  pid: number;
  /** Ends anvil and waits for its exit, so a state file has been written when this resolves. */
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 20_000;
const STOP_GRACE_SECONDS = 5;

/**
 * Anvil runs under a POSIX sh supervisor so that it dies with this process however this process
 * dies, SIGKILL included: no exit hook runs then, but the kernel closes our end of the
 * supervisor's stdin pipe, and the supervisor's watcher ends anvil on that EOF (SIGTERM, so anvil
 * dumps its state, then SIGKILL after a grace period). stop() closes the same pipe. The watcher is
 * its own process holding the pipe, so it still acts if the supervisor shell itself is killed; and
 * anvil exiting on its own ends the supervisor. Anvil's pid is reported on fd 3.
 * `$0` is a label; `$@` is the anvil command line.
 */
const SUPERVISOR = `
exec 4<&0 </dev/null
"$@" 3>&- 4<&- &
a=$!
echo "$a" >&3
exec 3>&-
{ while read -r _; do :; done; kill -TERM "$a"; sleep ${STOP_GRACE_SECONDS}; kill -KILL "$a"; } <&4 >/dev/null 2>&1 &
w=$!
exec 4<&-
wait "$a"
s=$?
kill -KILL "$w" 2>/dev/null
exit "$s"
`;
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
  if (opts.baseFeePerGas !== undefined) args.push('--block-base-fee-per-gas', String(opts.baseFeePerGas));
  if (opts.statePath !== undefined) {
    args.push('--state', opts.statePath, '--state-interval', String(opts.stateIntervalSeconds ?? 30));
  }
  return args;
}

function waitForExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Reads the first line the supervisor writes on fd 3: anvil's pid. */
function reportedPid(child: ChildProcess): Promise<number> {
  const pipe = child.stdio[3] as Readable;
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const line = /^(\d+)\n/.exec(text);
      if (!line) return;
      pipe.off('data', onData);
      resolve(Number(line[1]));
    };
    pipe.on('data', onData);
    pipe.once('end', () => reject(new Error('the anvil supervisor reported no pid')));
  });
}

/** Starts anvil on a free loopback port and resolves once it accepts RPC calls. */
export async function startAnvil(opts: AnvilOptions = {}): Promise<Anvil> {
  // detached: a terminal's Ctrl-C reaches only the service, whose shutdown stops anvil in turn,
  // after the requests in flight (which may need the chain) are answered.
  const child = spawn(
    '/bin/sh',
    ['-c', SUPERVISOR, 'anvil-supervisor', anvilBinaryPath(), ...anvilArgs(opts)],
    {
      stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
      detached: true,
    },
  );
  // The pipe is never written to; a failed write must not crash the service.
  child.stdin?.on('error', () => {});
  let output = '';
  const record = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_TAIL_CHARS);
  };
  // Both pipes are drained for anvil's whole life: a full pipe would block it mid-request.
  child.stdout?.on('data', record);
  child.stderr?.on('data', record);

  let pid = 0;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = waitForExit(child);
    child.stdin?.end();
    // The supervisor escalates to SIGKILL itself; this is the backstop should it be gone.
    const timer = setTimeout(
      () => {
        if (pid > 0) killQuietly(pid);
        child.kill('SIGKILL');
      },
      (STOP_GRACE_SECONDS + 2) * 1000,
    );
    await exited;
    clearTimeout(timer);
  };

  try {
    pid = await Promise.race([
      reportedPid(child),
      new Promise<never>((_, reject) => child.once('error', reject)),
    ]);
  } catch (err) {
    await stop();
    throw new Error(`anvil could not be started: ${(err as Error).message}`);
  }

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
      const anvil = { rpcUrl: `http://127.0.0.1:${match[1]}`, process: child, pid, stop };
      void catchesSigterm(pid).then(() => resolve(anvil));
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      failStart(`exited before listening (code ${code}, signal ${signal})`);
    const timer = setTimeout(
      () => failStart(`did not listen within ${START_TIMEOUT_MS / 1000} s`),
      START_TIMEOUT_MS,
    );
    function cleanup() {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
    }
    // Registered after `record`, so the output already holds this chunk when it is matched.
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
    // Anvil may have listened, or the supervisor exited, while its pid was being read.
    if (child.exitCode !== null || child.signalCode !== null) onExit(child.exitCode, child.signalCode);
    else onData();
  });
}

const SIGTERM_BIT = 1n << 14n; // signal 15, in /proc/<pid>/status's SigCgt mask
const SIGTERM_WAIT_MS = 5_000;

/**
 * Resolves once anvil catches SIGTERM. Anvil prints "Listening" and answers calls before its
 * shutdown task has installed that handler (it does so on the task's first poll): a SIGTERM in
 * that window kills it without dumping its state (measured: 14 of 30 starts were still in it at
 * "Listening"). Read from /proc on Linux; elsewhere, or once anvil is gone, at once.
 */
export async function catchesSigterm(pid: number): Promise<void> {
  const until = Date.now() + SIGTERM_WAIT_MS;
  while (Date.now() < until) {
    let status: string;
    try {
      status = await readFile(`/proc/${pid}/status`, 'utf8');
    } catch {
      return;
    }
    const caught = /^SigCgt:\s*([0-9a-f]+)$/m.exec(status);
    if (!caught || (BigInt(`0x${caught[1]}`) & SIGTERM_BIT) !== 0n) return;
    await new Promise((r) => setTimeout(r, 5));
  }
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
