// Builds the package into dist/ (`npm run build`, and `npm pack` through prepack): tsc emits the
// .js and .d.ts files (tsconfig.build.json rewrites the sources' relative `.ts` imports to `.js`
// in the JavaScript); the declarations get `.js` specifiers here too, which tsc leaves as `.ts`
// (TypeScript reads either, but older tools and some editors only follow `.js`).
// `node build.mjs --clean` removes dist/ again (postpack), so no build output stays in the sources.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, 'dist');

rmSync(dist, { recursive: true, force: true });
if (!process.argv.includes('--clean')) {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', join(here, 'tsconfig.build.json')], { stdio: 'inherit' });
  for (const name of readdirSync(dist).filter((n) => n.endsWith('.d.ts'))) {
    const file = join(dist, name);
    const text = readFileSync(file, 'utf8').replace(
      /((?:from\s+|import\()['"]\.{1,2}\/[^'"]+)\.ts(['"])/g,
      '$1.js$2',
    );
    writeFileSync(file, text);
  }
}
