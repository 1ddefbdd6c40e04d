/**
 * The `bounty` CLI as one JavaScript bundle, so a command starts without tsx transpiling its
 * TypeScript on every run: scripts/build.mjs writes it (`npm install` through `prepare`, `npm run
 * build`, any `--if-stale` build when a source changed, and test/helpers/cli.ts before it spawns
 * `bounty`), bin/bounty.mjs runs it while it is current and the sources through tsx otherwise (no
 * build yet, or a source edited since).
 *
 * dist/cli/main.js is clients/cli/main.ts with every source it imports, the repository's own
 * (clients/, src/); npm packages stay imports, resolved in node_modules at run time, so an
 * `npm install` never leaves an old copy of one inside. `bounty mcp`'s bridge (src/mcp/stdio.ts and
 * the MCP SDK it loads) is a chunk of its own, loaded only by that command. manifest.json lists the
 * sources with their size and modification time: the bundle is current while all of them match.
 *
 * Plain JavaScript: bin/bounty.mjs reads the manifest before any loader is registered.
 */

import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEsbuild, ownImportMetaUrl } from './esbuild-tools.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** Where the bundle goes, under dist/ (which the server build empties of anything else). */
export const CLI_DIR = 'cli';
const OUT = join(root, 'dist', CLI_DIR);
const MANIFEST = join(OUT, 'manifest.json');
const ENTRY = 'clients/cli/main.ts';
/** Bumped when the manifest's shape changes: an older one then reads as stale. */
const FORMAT = 1;
/** Besides the bundled sources, what else decides the output: this file and the TypeScript settings. */
const SETTINGS = ['scripts/lib/cli-bundle.mjs', 'scripts/lib/esbuild-tools.mjs', 'tsconfig.json'];

const stamp = (rel) => {
  const s = statSync(join(root, rel), { throwIfNoEntry: false });
  return s ? [rel, s.size, s.mtimeMs] : null;
};

/** dist/cli/main.js when it was built from the sources as they are now; null otherwise. */
export function currentBundle() {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(MANIFEST, 'utf8'));
  } catch {
    return null;
  }
  if (manifest.format !== FORMAT || !Array.isArray(manifest.inputs)) return null;
  for (const [rel, size, mtimeMs] of manifest.inputs) {
    const now = stamp(rel);
    if (!now || now[1] !== size || now[2] !== mtimeMs) return null;
  }
  return join(OUT, 'main.js');
}

/** Each of the repository's sources sees its own file's URL (clients/cli/commands/repo.ts finds bin/bounty.mjs from it). */
const ownUrls = ownImportMetaUrl({
  outDir: OUT,
  filter: /\.ts$/,
  loader: 'ts',
  owns: () => true,
  bundle: 'the CLI bundle',
});

/** Writes a file whole or not at all: a `bounty` starting meanwhile reads the old one or the new. */
function put(file, contents) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.${process.pid}.tmp`, contents);
  renameSync(`${file}.${process.pid}.tmp`, file);
}

/**
 * Bundles the CLI into dist/cli/ unless `ifStale` and it is current. Never fails the build: without
 * a bundle (esbuild missing, a source that does not compile) `bounty` runs the sources through tsx,
 * which reports such an error itself. Returns what it did, for the build's log.
 */
export async function bundleCli({ ifStale = false } = {}) {
  if (ifStale && currentBundle()) return null;
  const esbuild = loadEsbuild();
  if (!esbuild) return 'CLI not bundled (esbuild, from tsx, not found): `bounty` runs from the sources';
  const started = Date.now();
  rmSync(MANIFEST, { force: true });
  let result;
  try {
    result = await esbuild.build({
      absWorkingDir: root,
      entryPoints: { main: ENTRY },
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      packages: 'external',
      outdir: OUT,
      chunkNames: 'chunks/[name]-[hash]',
      metafile: true,
      write: false,
      logLevel: 'silent',
      plugins: [ownUrls],
    });
  } catch (err) {
    const first = err.errors?.[0];
    const where = first?.location ? `${first.location.file}:${first.location.line}: ` : '';
    return `CLI not bundled (${where}${first?.text ?? err.message}): \`bounty\` runs from the sources`;
  }
  const written = new Set();
  for (const file of result.outputFiles) {
    put(file.path, file.contents);
    written.add(file.path);
  }
  // What an earlier bundle had and this one has not (another bundler's file still being written
  // aside: a test worker may bundle beside a build).
  for (const rel of readdirSync(OUT, { recursive: true })) {
    const file = join(OUT, rel);
    const s = statSync(file, { throwIfNoEntry: false });
    if (!s?.isFile() || file === MANIFEST || written.has(file)) continue;
    if (!file.endsWith('.tmp') || s.mtimeMs < started - 60_000) rmSync(file, { force: true });
  }
  const inputs = [...Object.keys(result.metafile.inputs), ...SETTINGS].map(stamp);
  // A source saved while esbuild ran may be in the bundle as it was before: leave it stale then.
  if (inputs.some((s) => !s || s[2] >= started)) return 'CLI bundle left stale: a source changed meanwhile';
  put(MANIFEST, `${JSON.stringify({ format: FORMAT, inputs })}\n`);
  return `bundled the CLI to dist/${CLI_DIR}/ in ${((Date.now() - started) / 1000).toFixed(1)} s`;
}
