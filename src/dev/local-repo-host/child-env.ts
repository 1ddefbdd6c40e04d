/**
 * The whole environment of every process the local host spawns (`git`, `git http-backend` and
 * the hooks git runs). Built from nothing rather than from `process.env`, so the service's keys
 * (WALLET_MASTER_KEY, OPERATOR_PRIVATE_KEY, PAYOUT_PRIVATE_KEY, GITHUB_TOKEN, DATABASE_URL, ...)
 * never reach git or anything a repository's configuration could make git run.
 */
export function childEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    // git finds its helpers (git-receive-pack, ...) on PATH; nothing else is taken from the service.
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    // A directory of the host's own: no user's ~/.gitconfig, credentials or hooks apply.
    HOME: home,
    XDG_CONFIG_HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    // Stable, untranslated messages in logs and errors.
    LANG: 'C',
    LC_ALL: 'C',
    ...extra,
  };
}
