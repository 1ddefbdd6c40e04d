import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmdirSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';

/**
 * A migrated, empty PGlite data directory, dumped as a tar: a new database boots from it instead
 * of running initdb and every migration (PGlite's `loadDataDir`), several times faster. The file
 * is named by a hash of PGlite's version and every migration, so a new migration or PGlite makes a
 * new template; the migrator still runs on the database, which then finds nothing to apply.
 *
 * `npm run build` writes one into `dist/` (`npm start`'s first start on a new DATA_DIR loads it);
 * the tests keep theirs under node_modules/.cache.
 */
export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** Where the compiled app keeps its template: `dist/` (from `src/` through tsx there is none). */
export const APP_TEMPLATE_DIR = fileURLToPath(new URL('../..', import.meta.url));

/** PGlite's package.json (its exports hide it from `resolve`): up from its entry point. */
function pglitePackage(): string {
  let dir = dirname(fileURLToPath(import.meta.resolve('@electric-sql/pglite')));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return join(dir, 'package.json');
}

/** The template's name for this PGlite and these migrations. */
export function templateName(): string {
  const hash = createHash('sha256');
  hash.update(readFileSync(pglitePackage()));
  for (const dir of [migrationsFolder, join(migrationsFolder, 'meta')]) {
    for (const f of readdirSync(dir).sort()) {
      if (f.endsWith('.sql') || f.endsWith('.json')) hash.update(f).update(readFileSync(join(dir, f)));
    }
  }
  return `pglite-${hash.digest('hex').slice(0, 16)}.tar`;
}

/** The template in `dir`, if one was written for this PGlite and these migrations. */
export function readTemplate(dir: string): Blob | null {
  const file = join(dir, templateName());
  return existsSync(file) ? new Blob([readFileSync(file)]) : null;
}

/**
 * Unpacks the template in `templateDir` as the data directory `dataDir`, which must be missing or
 * empty; false when there is no template. Streamed from the file a block at a time (loading it
 * through PGlite's `loadDataDir` holds three copies of its 40 MB in memory, which the process
 * keeps), into a directory beside it that is renamed into place last: a start killed half-way
 * leaves no half database, only a leftover the next start replaces.
 */
export function unpackTemplate(templateDir: string, dataDir: string): boolean {
  const file = join(templateDir, templateName());
  if (!existsSync(file)) return false;
  const staging = `${dataDir}.unpacking`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const fd = openSync(file, 'r');
  try {
    untar(fd, staging);
  } finally {
    closeSync(fd);
  }
  if (existsSync(dataDir)) rmdirSync(dataDir);
  renameSync(staging, dataDir);
  return true;
}

/** Regular files and directories of a ustar archive (all PGlite's dump holds), written under `to`. */
function untar(fd: number, to: string): void {
  const header = Buffer.alloc(512);
  const chunk = Buffer.alloc(1 << 20);
  let at = 0;
  const field = (from: number, length: number) =>
    header
      .subarray(from, from + length)
      .toString('utf8')
      .replace(/\0.*$/s, '')
      .trim();
  for (;;) {
    if (readSync(fd, header, 0, 512, at) < 512 || header.every((b) => b === 0)) return;
    at += 512;
    const prefix = field(345, 155);
    const name = `${prefix ? `${prefix}/` : ''}${field(0, 100)}`.replace(/^\/+/, '');
    const size = Number.parseInt(field(124, 12) || '0', 8);
    const type = field(156, 1) || '0';
    const mode = Number.parseInt(field(100, 8) || '600', 8) & 0o777;
    if (name.split('/').includes('..')) throw new Error(`template entry outside its directory: ${name}`);
    const path = join(to, name);
    if (type === '5') {
      mkdirSync(path, { recursive: true, mode });
    } else if (type === '0') {
      mkdirSync(dirname(path), { recursive: true });
      const out = openSync(path, 'w', mode);
      try {
        for (let left = size; left > 0; ) {
          const n = readSync(fd, chunk, 0, Math.min(left, chunk.length), at + size - left);
          if (n <= 0) throw new Error(`template truncated in ${name}`);
          writeSync(out, chunk, 0, n);
          left -= n;
        }
      } finally {
        closeSync(out);
      }
    } else {
      throw new Error(`template entry of type ${type} (${name}) is not a file or a directory`);
    }
    at += Math.ceil(size / 512) * 512;
  }
}

/**
 * The template in `dir`, written first when missing. Uncompressed: a boot from a tar skips the
 * gunzip, a third of the boot (measured: 650 -> 420 ms). Written aside and renamed, so that a
 * parallel process never reads half a file.
 */
export async function ensureTemplate(dir: string): Promise<Blob> {
  const found = readTemplate(dir);
  if (found) return found;
  const client = new PGlite();
  await migrate(drizzle({ client }), { migrationsFolder });
  const dump = await client.dumpDataDir('none');
  await client.close();
  mkdirSync(dir, { recursive: true });
  const file = join(dir, templateName());
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
  renameSync(tmp, file);
  return dump;
}
