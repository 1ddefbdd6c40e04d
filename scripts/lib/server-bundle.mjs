/**
 * `npm start`'s entry, dist/main.js, as one file: the compiled server (every module of dist/) and
 * the pure-ESM packages it loads by the hundred (viem and its crypto, TypeBox, drizzle-orm) bundled
 * together. Node otherwise resolves, reads and links some 1,200 modules at each start, which cost
 * more CPU than running any of them (bench/startup.ts; bench/README.md). The rest of node_modules
 * stays imports: CommonJS packages, and those that read files beside their own code (PGlite's
 * WebAssembly, pino's worker).
 *
 * The compiled modules stay where they are: each bundled module's `import.meta.url` is its own
 * file's URL (relative to the bundle, so a moved checkout still resolves), so what it reads beside
 * itself (migrations, templates, assets) is found as before. Without esbuild (an install without
 * dev dependencies), or should bundling fail, dist/main.js stays the compiled module it was: it
 * starts the same, only slower.
 *
 * Plain JavaScript: scripts/build.mjs runs it before anything is compiled.
 */

import { renameSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { loadEsbuild, ownImportMetaUrl } from './esbuild-tools.mjs';

/** Packages bundled in: pure ESM, no files of their own read at run time, hundreds of modules each. */
const BUNDLED = new Set([
  'viem',
  'ox',
  'abitype',
  '@noble/hashes',
  '@noble/curves',
  '@noble/ciphers',
  '@scure/base',
  '@scure/bip32',
  '@scure/bip39',
  'typebox',
  'drizzle-orm',
]);

const packageOf = (specifier) => {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
};

/**
 * Bundles dist/main.js in place (dist/ freshly compiled). Returns what it did, for the build's log;
 * never throws.
 */
export async function bundleServer(root) {
  const dist = join(root, 'dist');
  const entry = join(dist, 'main.js');
  const esbuild = loadEsbuild();
  if (!esbuild)
    return 'server not bundled (esbuild, from tsx, not found): dist/main.js loads module by module';
  const started = Date.now();
  const packagesOutside = {
    name: 'packages-outside',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('node:') || !BUNDLED.has(packageOf(args.path))) {
          return { path: args.path, external: true };
        }
        return undefined;
      });
    },
  };
  const ownUrls = ownImportMetaUrl({
    outDir: dist,
    filter: /\.js$/,
    loader: 'js',
    owns: (path) => path.startsWith(dist + sep),
    bundle: 'the server bundle',
  });
  let result;
  try {
    result = await esbuild.build({
      absWorkingDir: root,
      entryPoints: [entry],
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      write: false,
      outfile: entry,
      allowOverwrite: true,
      logLevel: 'silent',
      plugins: [packagesOutside, ownUrls],
    });
  } catch (err) {
    const first = err.errors?.[0];
    const where = first?.location ? `${first.location.file}:${first.location.line}: ` : '';
    return `server not bundled (${where}${first?.text ?? err.message}): dist/main.js loads module by module`;
  }
  const [out] = result.outputFiles;
  writeFileSync(`${entry}.${process.pid}.tmp`, out.contents);
  renameSync(`${entry}.${process.pid}.tmp`, entry);
  const kb = Math.round(out.contents.length / 1024);
  return `bundled dist/main.js (${kb} KB) in ${((Date.now() - started) / 1000).toFixed(1)} s`;
}
