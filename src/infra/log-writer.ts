import { writeSync } from 'node:fs';
import { pino } from 'pino';

/** How long a full pipe is waited for before a write is tried again (sonic-boom waits 100 ms). */
const BUSY_WAIT_MS = 10;
/** Lines kept before they are written at once, whatever the turn (64 KB: hundreds of lines). */
const MAX_PENDING_CHARS = 64 * 1024;
/** pino's level number for `error`: such a line, and anything worse, is written before `write` returns. */
const ERROR_LEVEL = 50;
/** What `Atomics.wait` sleeps on while a full pipe drains (nothing ever wakes it early). */
const SLEEP_CELL = new Int32Array(new SharedArrayBuffer(4));

/**
 * The logger's destination for JSON lines (`npm start`): the lines logged during one turn of the
 * event loop are written together, in one system call, at the end of that turn (`setImmediate`),
 * instead of one call each. Under load a turn answers several requests, so their access lines go
 * out in one `write`: a write to a pipe wakes whatever reads it (a log collector), and on this
 * 2-core box each such call and wake-up cost a request ~5 µs (bench/README.md, "Access lines
 * written once a turn"). Nothing waits longer than the turn it was logged in; an error line (and
 * worse) is written at once, with everything before it, and whatever is pending when the process
 * exits (`process.exit`, an uncaught exception) is written on the way out. A `kill -9` loses at
 * most the lines of the turn it interrupts, which a synchronous logger could lose as well had the
 * kill come a moment earlier. A full pipe (EAGAIN) is waited for; any other failure (a closed
 * stdout) drops the lines, as a logger has nowhere left to say so.
 */
export class TurnWriter {
  /** pino sets `lastLevel` before each write when its destination asks for the metadata. */
  readonly [pino.symbols.needsMetadataGsym] = true;
  lastLevel = 0;
  #pending = '';
  #scheduled = false;
  readonly #endOfTurn = () => {
    this.#scheduled = false;
    this.#writePending();
  };

  constructor(private readonly fd: number) {
    process.on('exit', () => this.#writePending());
  }

  write(line: string): boolean {
    this.#pending += line;
    if (this.lastLevel >= ERROR_LEVEL || this.#pending.length >= MAX_PENDING_CHARS) this.#writePending();
    else if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.#endOfTurn);
    }
    return true;
  }

  /** Writes every pending line now (pino's `logger.flush(cb)` calls it with a callback). */
  flush(done?: (err?: Error) => void): void {
    this.#writePending();
    done?.();
  }

  #writePending(): void {
    if (this.#pending === '') return;
    const bytes = Buffer.from(this.#pending);
    this.#pending = '';
    let offset = 0;
    while (offset < bytes.length) {
      try {
        offset += writeSync(this.fd, bytes, offset);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') return;
        Atomics.wait(SLEEP_CELL, 0, 0, BUSY_WAIT_MS);
      }
    }
  }
}

let stdoutWriter: TurnWriter | undefined;

/**
 * The process's one writer to stdout: two loggers of one process share it, so their lines keep
 * the order they were logged in and one exit handler writes what is pending.
 */
export const stdoutTurnWriter = (): TurnWriter => {
  stdoutWriter ??= new TurnWriter(1);
  return stdoutWriter;
};
