import { expect, vi } from 'vitest';
import { runCli } from '../../clients/cli/main.ts';

/**
 * `bounty <args>` in this process, on the typed client, as `who` (its key) against `apiUrl`, with a
 * config directory of the test's own; what it printed on stdout. It must exit 0.
 */
export async function cliInProcess(
  args: string[],
  opts: { apiUrl: string; apiKey: string; configHome: string },
): Promise<string> {
  vi.stubEnv('BOUNTY_API_URL', opts.apiUrl);
  vi.stubEnv('BOUNTY_API_KEY', opts.apiKey);
  vi.stubEnv('XDG_CONFIG_HOME', opts.configHome);
  let out = '';
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  try {
    expect(await runCli(args)).toBe(0);
  } finally {
    write.mockRestore();
    vi.unstubAllEnvs();
  }
  return out;
}
