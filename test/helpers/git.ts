import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * An environment for running git as a contributor: its own HOME with a committer identity, no
 * system config and no credential prompts, so tests never touch the machine's git setup. With an
 * API key, git answers the local host's 401 challenge with it (any user name, the key as
 * password), through a credential helper as a user would configure one; without, it is anonymous.
 */
export function contributorGitEnv(dir: string, name: string, apiKey?: string): NodeJS.ProcessEnv {
  const home = join(dir, `home-${name.replace(/[^A-Za-z0-9]+/g, '-')}`);
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, '.gitconfig'), `[user]\n\tname = ${name}\n\temail = contributor@example.test\n`);
  return {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    ...(apiKey ? withApiKey(apiKey) : {}),
  };
}

/** Git config (through the environment) that sends `apiKey` as the password when challenged. */
export function withApiKey(apiKey: string): Record<string, string> {
  return {
    MARKETPLACE_API_KEY: apiKey,
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'credential.helper',
    // The key stays in the environment, never in a file or a remote URL.
    GIT_CONFIG_VALUE_0: '!f() { echo username=agent; echo "password=$MARKETPLACE_API_KEY"; }; f',
  };
}
