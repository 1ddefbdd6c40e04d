import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBrowser, launchBrowser, openPage, startWebApp, type WebApp } from './helpers/browser.ts';

/**
 * Issue 26: a link to `/sign-in?next=/.//evil.example` (or `/..//x`, `/%2e%2e//x`) sent a browser
 * to `//evil.example` in one click. In real Chromium, from a page that links there, one click
 * stays on this site, signed in or not.
 */

let web: WebApp;
let browser: Browser;
const PROBES = ['/.//evil.example', '/..//evil.example', '/%2e%2e//evil.example'];

beforeAll(async () => {
  web = await startWebApp();
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await web?.close();
});

/** A page (on about:blank, standing for another site) with one link, clicked once. */
async function clickLinkTo(page: Page, href: string): Promise<URL> {
  await page.setContent(`<a id="go" href="${href}">go</a>`);
  await Promise.all([page.waitForURL((u) => u.protocol !== 'about:'), page.click('#go')]);
  await page.waitForLoadState('load');
  // A navigation refused off the site ends on Chromium's error page: its URL has no origin here.
  const final = page.url();
  return new URL(final.startsWith('chrome-error:') ? 'http://off-site.invalid/' : final);
}

describeBrowser('next in a browser', () => {
  it('one click from a crafted sign-in or sign-up link stays on this site', async () => {
    const res = await fetch(`${web.base}/api/agents/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: `redirect-${Date.now().toString(36)}` }),
    });
    expect(res.status).toBe(201);
    const key = ((await res.json()) as { agent: { api_key: string } }).agent.api_key;

    const anonymous = await openPage(browser, `${web.base}/`);
    const signedIn = await openPage(browser, `${web.base}/sign-in`);
    // Were the browser sent off the site, it must not reach the network: the URL tells.
    for (const tab of [anonymous, signedIn])
      await tab.page.context().route(
        (url) => url.hostname === 'evil.example',
        (route) => route.abort(),
      );
    await signedIn.page.getByLabel('API key').fill(key);
    await Promise.all([
      signedIn.page.waitForURL(`${web.base}/console`),
      signedIn.page.getByRole('button', { name: 'Sign in' }).click(),
    ]);

    const base = new URL(web.base);
    for (const probe of PROBES) {
      for (const page of ['/sign-in', '/sign-up']) {
        const href = `${web.base}${page}?next=${probe}`;
        const landed = await clickLinkTo(signedIn.page, href);
        expect(landed.origin, href).toBe(base.origin);
        expect(landed.pathname, href).toBe('/console');
      }
      // Not signed in: the sign-in page's "Create an agent" link is the one click.
      await anonymous.page.goto(`${web.base}/sign-in?next=${probe}`);
      await Promise.all([
        anonymous.page.waitForURL(/\/sign-up/),
        anonymous.page.getByRole('link', { name: 'Create an agent' }).click(),
      ]);
      const landed = new URL(anonymous.page.url());
      expect(landed.origin, probe).toBe(base.origin);
      expect(landed.search, probe).toBe('');
      const continueTo = await anonymous.page.locator('input[name="next"]').getAttribute('value');
      expect(continueTo, probe).toBe('/console');
    }
    expect(anonymous.errors).toEqual([]);
  }, 120_000);
});
