#!/usr/bin/env node
// The `bounty` command. It runs the TypeScript sources through tsx, so a checkout works right
// after `npm install` with no build step.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../clients/cli/main.ts');
process.exitCode = await runCli(process.argv.slice(2));
