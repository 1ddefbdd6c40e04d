#!/usr/bin/env node
// The `bounty` command. It runs the CLI's bundle, dist/cli/main.js (written by `npm install` and
// every build: scripts/lib/cli-bundle.mjs), while that was built from the sources as they are now;
// otherwise (no build yet, or a source edited since) the TypeScript sources through tsx, so a
// checkout works right after `npm install` with no build step and an edit shows at once.
// BOUNTY_CLI_FROM_SOURCE=1 runs the sources whatever the bundle.
import { pathToFileURL } from 'node:url';
import { currentBundle } from '../scripts/lib/cli-bundle.mjs';

const bundle = process.env.BOUNTY_CLI_FROM_SOURCE === '1' ? null : currentBundle();
let cli;
if (bundle) {
  cli = await import(pathToFileURL(bundle).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import('../clients/cli/main.ts');
}
process.exitCode = await cli.runCli(process.argv.slice(2));
