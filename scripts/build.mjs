#!/usr/bin/env node
/**
 * Compiles src/ to dist/ (JavaScript that `npm start` runs), copies what the app reads from disk
 * next to its own modules (migrations, page templates, web assets), writes the migrated PGlite
 * template a first start on a new DATA_DIR boots from, and bundles the entry, dist/main.js, with
 * the modules it loads (scripts/lib/server-bundle.mjs). Bundles the `bounty` CLI into
 * dist/cli/ (scripts/lib/cli-bundle.mjs), which bin/bounty.mjs runs while it is current.
 *
 *   node scripts/build.mjs              build now
 *   node scripts/build.mjs --if-stale   build only what changed since the last build (src/ for
 *                                       the server, the CLI's sources for its bundle)
 *                                       (`prepare` and `prestart` run this: one `npm start` works
 *                                       right after `npm install` and after any edit)
 *   --at-install                        without TypeScript (an install that omits dev
 *                                       dependencies) skip instead of failing
 *
 * Plain JavaScript on purpose: it runs before anything is compiled, with no loader. Types are
 * checked by `npm run typecheck` (CI), not here: emitting without checking takes a few seconds
 * instead of tens (the sources are `isolatedModules`, so each file compiles on its own).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleCli, CLI_DIR, currentBundle } from './lib/cli-bundle.mjs';
import { bundleServer } from './lib/server-bundle.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const SRC = join(root, 'src');
const DIST = join(root, 'dist');
const STAMP = join(DIST, '.build-stamp');
const LOCK = join(DIST, '.build.lock');
const args = new Set(process.argv.slice(2));
const log = (msg) => console.error(`build: ${msg}`);

/** Every file under dir, relative to it, sorted. */
function walk(dir, base = dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(full, base));
    else if (entry.isFile()) out.push(relative(base, full));
  }
  return out.sort();
}

const isAsset = (rel) => !rel.endsWith('.ts') && !rel.endsWith('.md');

/** Names, sizes and times of everything the output depends on: any change means a rebuild. */
function fingerprint() {
  const hash = createHash('sha256');
  const inputs = [
    ...walk(SRC).map((rel) => join(SRC, rel)),
    join(root, 'tsconfig.json'),
    join(root, 'tsconfig.build.json'),
    fileURLToPath(import.meta.url),
    fileURLToPath(new URL('./lib/server-bundle.mjs', import.meta.url)),
    fileURLToPath(new URL('./lib/esbuild-tools.mjs', import.meta.url)),
  ];
  for (const file of inputs) {
    const s = statSync(file);
    hash.update(`${relative(root, file)}\0${s.size}\0${s.mtimeMs}\n`);
  }
  return hash.digest('hex');
}

const fresh = (print) => existsSync(STAMP) && readFileSync(STAMP, 'utf8') === print;

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/** One build at a time per checkout (`npm start` twice, test projects in parallel). */
function lock() {
  mkdirSync(DIST, { recursive: true });
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      writeFileSync(LOCK, String(process.pid), { flag: 'wx' });
      return;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
    }
    const holder = Number(readFileSync(LOCK, 'utf8'));
    if (!holder || !alive(holder)) {
      // Left by a build that was killed; an empty file is one being written: give it a moment.
      if (holder || Date.now() - statSync(LOCK).mtimeMs > 1_000) rmSync(LOCK, { force: true });
    } else if (Date.now() > deadline) {
      throw new Error(`another build (pid ${holder}) holds ${LOCK}`);
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
  }
}

/**
 * TypeScript's native compiler (TypeScript 7, the dev dependency `typescript-native`): it emits
 * src/ in ~1.3 s where TypeScript 5.9's JavaScript compiler took ~5.4 s, the same files but for
 * the quotes of rewritten import specifiers. `typescript` (5.9) stays for the tools that use its
 * JavaScript API (the boundary check, the client generator).
 */
function tscPath() {
  try {
    const pkg = createRequire(import.meta.url).resolve('typescript-native/package.json');
    return join(dirname(pkg), 'bin', 'tsc');
  } catch {
    return null;
  }
}

function compile(tsc) {
  const started = Date.now();
  const res = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--noCheck'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (res.status !== 0) {
    process.stderr.write(res.stdout + res.stderr);
    throw new Error(`tsc failed (exit ${res.status ?? res.signal})`);
  }
  const sources = new Set(walk(SRC));
  for (const rel of sources) {
    if (!isAsset(rel)) continue;
    mkdirSync(dirname(join(DIST, rel)), { recursive: true });
    copyFileSync(join(SRC, rel), join(DIST, rel));
  }
  // Output of sources that no longer exist would otherwise linger (and could still be imported).
  for (const rel of walk(DIST)) {
    if (rel.startsWith('.') || rel.startsWith(`${CLI_DIR}/`) || TEMPLATE.test(rel)) continue;
    const source = rel.endsWith('.js') && !sources.has(rel) ? rel.replace(/\.js$/, '.ts') : rel;
    if (!sources.has(source)) unlinkSync(join(DIST, rel));
  }
  log(`compiled src/ to dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** The database template a first start boots from (src/infra/db/pglite-template.ts). */
const TEMPLATE = /^pglite-[0-9a-f]{16}\.tar$/;

/**
 * Writes dist/'s PGlite template when these migrations have none yet (a few seconds, once per
 * migration set), and deletes the templates of other migration sets. Without one, a first start
 * runs initdb and every migration instead: slower, never wrong, so a failure here only warns.
 */
function template() {
  const started = Date.now();
  const module = join(DIST, 'infra/db/pglite-template.js');
  const script = `import(${JSON.stringify(module)}).then(async (m) => { await m.ensureTemplate(${JSON.stringify(DIST)}); console.log(m.templateName()); })`;
  const res = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: root,
    encoding: 'utf8',
  });
  if (res.status !== 0) return log(`no database template (first starts run initdb): ${res.stderr.trim()}`);
  const name = res.stdout.trim();
  for (const rel of readdirSync(DIST)) if (TEMPLATE.test(rel) && rel !== name) unlinkSync(join(DIST, rel));
  log(`database template ${name} ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** The server's part: src/ to dist/, the database template and the bundled entry. */
async function buildServer(ifStale) {
  const print = fingerprint();
  if (ifStale && fresh(print)) return;
  const tsc = tscPath();
  if (!tsc) {
    const why = 'TypeScript is not installed (dev dependencies omitted?)';
    if (existsSync(STAMP)) return log(`${why}: keeping the existing dist/`);
    if (args.has('--at-install')) return log(`${why}: skipped; build with \`npm run build\` where it is`);
    throw new Error(`${why} and dist/ was never built: run \`npm install\`, then \`npm start\``);
  }
  rmSync(STAMP, { force: true });
  compile(tsc);
  template();
  log(await bundleServer(root));
  writeFileSync(STAMP, print);
}

async function main() {
  const ifStale = args.has('--if-stale');
  if (existsSync(join(SRC, CLI_DIR)))
    throw new Error(`src/${CLI_DIR}/ would share dist/${CLI_DIR}/ with the CLI`);
  if (ifStale && fresh(fingerprint()) && currentBundle()) return;
  lock();
  try {
    // Whoever held the lock may have just built the same sources: each part checks again.
    await buildServer(ifStale);
    const said = await bundleCli({ ifStale });
    if (said) log(said);
  } finally {
    rmSync(LOCK, { force: true });
  }
}

try {
  await main();
} catch (err) {
  log(err instanceof Error ? err.message : String(err));
  process.exit(1);
}
