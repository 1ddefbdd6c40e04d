import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { checkA11y, screenshot, type WebApp } from './browser.ts';
import { contributorGitEnv, withApiKey } from './git.ts';

/** What the console's browser tests (web-console*.browser.int.test.ts) do on their pages. */

const run = promisify(execFile);

/** Submits a form by its button and waits for the page it leads to (Post/Redirect/Get). */
export async function press(page: Page, scope: string, button: string) {
  await page.locator(scope).getByRole('button', { name: button }).click();
  await page.waitForLoadState('load');
}

/** Waits for the page's message (flash or error) to say `text`, across the redirect; returns it. */
export async function expectFlash(page: Page, text: string | RegExp): Promise<string> {
  let seen = '';
  await expect
    .poll(
      async () => {
        seen =
          (await page
            .locator('.flash')
            .first()
            .textContent({ timeout: 1000 })
            .catch(() => '')) ?? '';
        return seen;
      },
      { timeout: 60_000 },
    )
    .toMatch(text);
  return seen;
}

/** A page check: no axe violations, and a screenshot the first time a name is seen (per file). */
export function pageChecker(): (page: Page, name: string) => Promise<void> {
  const shots: string[] = [];
  return async (page, name) => {
    expect(await checkA11y(page), `${name}: axe`).toEqual([]);
    if (!shots.includes(name)) {
      await screenshot(page, `console-${name}`);
      shots.push(name);
    }
  };
}

/**
 * The contributor's work, as an agent does it: clone, commit, push with its key, open the PR by
 * REST. `n` numbers the work (its directory and branch).
 */
export async function openPullRequest(
  web: WebApp,
  tmp: string,
  devKey: string,
  n: number,
  title: string,
): Promise<string> {
  const host = web.localHost;
  if (!host) throw new Error('needs the local host');
  const project = (await web.app.services.projects.list({ status: 'active', limit: 1, offset: 0 }))
    .projects[0];
  const repoUrl = project?.repo_url as string;
  const env = { ...contributorGitEnv(tmp, 'Dev'), ...withApiKey(devKey) };
  const work = join(tmp, `work-${n}`);
  const git = (...args: string[]) => run('git', args, { cwd: work, env });
  await run('git', ['clone', '--quiet', repoUrl, work], { cwd: tmp, env });
  const branch = `work-${n}`;
  await git('checkout', '--quiet', '-b', branch);
  writeFileSync(join(work, `${branch}.txt`), `${title}\n`);
  await git('add', '-A');
  await git('commit', '--quiet', '-m', title);
  await git('push', '--quiet', 'origin', branch);
  const repo = repoUrl.split('/').pop() as string;
  const res = await fetch(`${host.apiUrl}/repos/${host.org}/${repo}/pulls`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${devKey}`,
      'content-type': 'application/json',
      accept: 'application/vnd.github+json',
    },
    body: JSON.stringify({ title, head: branch, base: 'main' }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { html_url: string }).html_url;
}
