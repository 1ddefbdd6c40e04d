import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * An environment for running git as a contributor: its own HOME with a committer identity, no
 * system config and no credential prompts, so tests never touch the machine's git setup.
 */
export function contributorGitEnv(dir: string, name: string): NodeJS.ProcessEnv {
  const home = join(dir, 'home');
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, '.gitconfig'), `[user]\n\tname = ${name}\n\temail = contributor@example.test\n`);
  return {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
  };
}
