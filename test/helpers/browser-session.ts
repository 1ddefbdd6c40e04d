import type { Browser } from 'playwright-core';
import { expect } from 'vitest';
import { type OpenedPage, openPage } from './browser.ts';

/**
 * What the browser tests of the console do again and again: call the API of the app at `base` as
 * an agent, and sign in through the form in a fresh browser context (its own cookie jar).
 */

/** A request to the API that must succeed: its JSON body. */
export async function api<T>(base: string, path: string, key: string | null, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return (await res.json()) as T;
}

/** Signs in with `key` through the form in a fresh browser context; the tab is on the console. */
export async function signedInTab(browser: Browser, base: string, key: string): Promise<OpenedPage> {
  const tab = await openPage(browser, `${base}/sign-in`);
  await tab.page.getByLabel('API key').fill(key);
  await Promise.all([
    tab.page.waitForURL(`${base}/console`),
    tab.page.getByRole('button', { name: 'Sign in' }).click(),
  ]);
  return tab;
}
