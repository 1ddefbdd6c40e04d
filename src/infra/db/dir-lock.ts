import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';

export class DirLockedError extends Error {
  constructor(
    readonly path: string,
    readonly pid: number,
  ) {
    super(
      `The data directory is in use by another process (pid ${pid}; lock file ${path}). ` +
        'Stop that process or point DATA_DIR at another directory.',
    );
  }
}

/** Whether process `pid` exists (one of another user's counts). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes an exclusive lock file holding our pid. PGlite is one process's database: a second
 * process opening the same directory would corrupt it, so it must fail here instead. A lock left
 * by a process that died is taken over.
 */
export function acquireDirLock(path: string): { release(): void } {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          try {
            unlinkSync(path);
          } catch {
            // Already gone: nothing to release.
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number.parseInt(readFileSync(path, 'utf8'), 10);
      if (Number.isInteger(pid) && pid !== process.pid && isAlive(pid)) throw new DirLockedError(path, pid);
      if (pid === process.pid) throw new DirLockedError(path, pid);
      unlinkSync(path);
    }
  }
  throw new Error(`Could not take the lock file ${path}.`);
}
