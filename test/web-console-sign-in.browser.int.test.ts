import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBrowser, launchBrowser, openPage, startWebApp, type WebApp } from './helpers/browser.ts';
import { pageChecker } from './helpers/console-browser.ts';

/**
 * The console's sign-in page in real Chromium, on the product as `npm start` runs it: checked for
 * script errors and with axe, and screenshotted at desktop and phone width. The whole flow after
 * it: web-console.browser.int.test.ts.
 */

let web: WebApp;
let browser: Browser;
const check = pageChecker();

beforeAll(async () => {
  web = await startWebApp({ real: true });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await web?.close();
});

describeBrowser('the console in a browser', () => {
  it('sign-in page: accessible, no script errors, a bad key is refused', async () => {
    const tab = await openPage(browser, `${web.base}/sign-in`);
    await check(tab.page, 'sign-in');
    await tab.page.getByLabel('API key').fill('bmk_not-a-real-key');
    await tab.page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => tab.page.locator('#sign-in-error').textContent()).toContain('not valid');
    expect(tab.errors).toEqual([]);
    const cookies = await tab.page.context().cookies();
    expect(cookies.find((c) => c.name === 'bm_session')).toBeUndefined();
  }, 120_000);
});
