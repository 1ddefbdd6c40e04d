import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';

/**
 * The embedded chain's pid file (DATA_DIR/chain/anvil.pid): which anvil serves the state file and
 * which service started it. A pid alone may be reused by an unrelated process after a reboot or a
 * long time, so each is stored with its start time (field 22 of /proc/<pid>/stat) and only a
 * process with the same pid and start time is taken for the recorded one.
 */
export interface ProcessIdentity {
  pid: number;
  /** Clock ticks after boot; null where /proc is unavailable (the process cannot be verified). */
  startedAt: string | null;
}

export interface DevChainRecord {
  anvil: ProcessIdentity;
  owner: ProcessIdentity;
  statePath: string;
}

export class DevChainInUseError extends Error {
  constructor(
    readonly path: string,
    readonly pid: number,
  ) {
    super(
      `The dev chain in this data directory is in use by another process (pid ${pid}; pid file ${path}). ` +
        'Stop that process or point DATA_DIR at another directory.',
    );
  }
}

const STOP_GRACE_MS = 5_000;
const KILL_WAIT_MS = 2_000;

function procStat(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may itself hold spaces or parentheses.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

export function identityOf(pid: number): ProcessIdentity {
  return { pid, startedAt: procStat(pid)?.[19] ?? null };
}

/** True while the very process of `id` runs (a zombie has ended; another process on its pid is not it). */
function running(id: ProcessIdentity): boolean {
  const fields = procStat(id.pid);
  if (!fields) return false;
  return fields[0] !== 'Z' && fields[19] === id.startedAt;
}

function argvOf(pid: number): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return null;
  }
}

export function readRecord(path: string): DevChainRecord | null {
  try {
    const rec = JSON.parse(readFileSync(path, 'utf8')) as DevChainRecord;
    return Number.isInteger(rec?.anvil?.pid) && Number.isInteger(rec?.owner?.pid) ? rec : null;
  } catch {
    // Missing or torn: nothing verifiable to act on.
    return null;
  }
}

export function writeRecord(path: string, rec: DevChainRecord): void {
  writeFileSync(`${path}.tmp`, JSON.stringify(rec));
  renameSync(`${path}.tmp`, path);
}

/** Removes the pid file if it still names this anvil (a newer run may have replaced it). */
export function removeRecord(path: string, anvilPid: number): void {
  if (readRecord(path)?.anvil.pid !== anvilPid) return;
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // It exited meanwhile.
  }
}

async function waitUntilGone(id: ProcessIdentity, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (running(id)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

/**
 * Stops the anvil an earlier run of this DATA_DIR left running (its service was killed before
 * the supervisor could act, or the supervisor itself was killed): two anvils writing one state
 * file roll the chain back under the database. Only a process verified to be anvil on our state
 * file is signalled; a recorded service that still runs means the directory is in use: refused.
 */
export async function stopStaleAnvil(
  recordPath: string,
  statePath: string,
  log: FastifyBaseLogger,
): Promise<void> {
  const rec = readRecord(recordPath);
  if (!rec) return;
  if (rec.owner.pid !== process.pid && running(rec.owner))
    throw new DevChainInUseError(recordPath, rec.owner.pid);
  if (!running(rec.anvil)) return;
  const argv = argvOf(rec.anvil.pid);
  const isOurAnvil =
    argv !== null &&
    /(^|\/)anvil$/.test(argv[0] ?? '') &&
    argv.includes('--state') &&
    argv.includes(statePath);
  if (!isOurAnvil) {
    log.warn({ pid: rec.anvil.pid }, 'the recorded dev chain pid is not our anvil; left alone');
    return;
  }
  log.warn({ pid: rec.anvil.pid }, 'stopping the dev chain anvil an earlier run left running');
  // SIGTERM first: anvil dumps its state, the chain the earlier run last saw.
  signal(rec.anvil.pid, 'SIGTERM');
  if (await waitUntilGone(rec.anvil, STOP_GRACE_MS)) return;
  signal(rec.anvil.pid, 'SIGKILL');
  if (!(await waitUntilGone(rec.anvil, KILL_WAIT_MS)))
    throw new Error(`The stale dev chain anvil (pid ${rec.anvil.pid}) does not exit.`);
}
