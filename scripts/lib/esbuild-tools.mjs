/**
 * What the two bundles (the CLI's, scripts/lib/cli-bundle.mjs, and the server's entry,
 * scripts/lib/server-bundle.mjs) share: esbuild itself, and each bundled module's own URL.
 *
 * Plain JavaScript: scripts/build.mjs runs it before anything is compiled.
 */

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { relative, sep } from 'node:path';

/** esbuild as tsx (a dependency) brings it; null where it cannot be loaded. */
export function loadEsbuild() {
  try {
    const tsx = createRequire(import.meta.url).resolve('tsx/package.json');
    return createRequire(tsx)('esbuild');
  } catch {
    return null;
  }
}

/**
 * In a bundle every module would see the bundle's own `import.meta.url`; each of the repository's
 * files (`owns`) gets its own file's URL instead, relative to the bundle in `outDir` so a moved
 * checkout still resolves: what a module reads beside itself is found as before.
 */
export function ownImportMetaUrl({ outDir, filter, loader, owns, bundle }) {
  return {
    name: 'own-import-meta-url',
    setup(build) {
      build.onLoad({ filter }, (args) => {
        if (args.path.includes(`${sep}node_modules${sep}`) || !owns(args.path)) return undefined;
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta')) return undefined;
        if (/import\.meta\.(dirname|filename)\b/.test(text)) {
          return { errors: [{ text: `import.meta.dirname/filename: not supported by ${bundle}` }] };
        }
        const rel = relative(outDir, args.path).split(sep).map(encodeURIComponent).join('/');
        const url = `new URL(${JSON.stringify(rel)}, import.meta.url).href`;
        return { contents: text.replace(/\bimport\.meta\.url\b/g, url), loader };
      });
    },
  };
}
