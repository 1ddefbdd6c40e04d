import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { describe } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { type LocalRepoHost, startLocalRepoHost } from '../../src/dev/local-repo-host/server.ts';
import type { Chain } from '../../src/infra/chain/chain.ts';
import type { WalletVault } from '../../src/infra/chain/wallet-vault.ts';
import { type Config, loadConfig } from '../../src/infra/config.ts';
import type { Database } from '../../src/infra/db/client.ts';
import { GithubHost } from '../../src/infra/repo-host/github-host.ts';
import type { RepoHost } from '../../src/infra/repo-host/repo-host.ts';
import { type Clock, systemClock } from '../../src/lib/clock.ts';
import { startTestChain, type TestChain } from './chain.ts';
import { openTestDatabase } from './database.ts';
import { FakeChain } from './fake-chain.ts';
import { FakeRepoHost } from './fake-repo-host.ts';
import { newVault } from './wallets.ts';

/**
 * Browser tests (`*.browser.int.test.ts`): the real app listening on a port, driven by Debian's
 * chromium through playwright-core. One browser per file; pages are reused where they can be.
 */

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM_PATH);
export const SCREENSHOT_DIR = join(process.cwd(), 'test-artifacts', 'screenshots');
export const DESKTOP_WIDTH = 1280;
export const PHONE_WIDTH = 390;

/**
 * `describe`, or a skip that says why: chromium is the only thing a browser suite may lack
 * (CI installs it), so anything else missing fails the suite instead.
 */
export const describeBrowser: typeof describe = hasChromium
  ? describe
  : (((name: string, fn: () => void) =>
      describe.skip(
        `${name} (skipped: ${CHROMIUM_PATH} is missing; apt-get install chromium)`,
        fn,
      )) as never);

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    // Quiet and self-contained: no update checks, sync or background fetches during tests.
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // Chromium 13x+ renders the address bar's popups as web pages (WebUI), two renderer
      // processes for every window, which a headless test never opens: each context cost twice the
      // CPU (launch + 20 contexts: 21.8 -> 11.5 s of chromium CPU measured on this box).
      '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup',
    ],
  });
}

export interface WebApp {
  app: Awaited<ReturnType<typeof buildApp>>;
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  base: string;
  database: Database;
  config: Config;
  chain: Chain;
  /** Set with `real: true`: the anvil behind `chain`. */
  testChain: TestChain | null;
  /** Set with `real: true`: the local repository host (git over HTTP, GitHub-style REST). */
  localHost: LocalRepoHost | null;
  /** The fake host of a fast (`real: false`) app. */
  fakeHost: FakeRepoHost | null;
  vault: WalletVault;
  close(): Promise<void>;
}

export interface WebAppOptions {
  /**
   * true: the whole product as `npm start` runs it (anvil with the factory, the local repository
   * host with its merge webhook, an in-app wallet vault, background jobs). false (default): a
   * FakeChain and a fake host, for fast public-page tests.
   */
  real?: boolean;
  chain?: Chain;
  clock?: Clock;
  env?: Record<string, string>;
}

/** The secret the local host signs its webhooks with (a test delivers one of its own with it). */
export const WEBHOOK_SECRET = 'browser-webhook-secret';
const PLATFORM_TOKEN = 'browser-platform-token';

/** The app listening on 127.0.0.1, port 0, with a fresh database. */
export async function startWebApp(opts: WebAppOptions = {}): Promise<WebApp> {
  const tmp = mkdtempSync(join(tmpdir(), 'web-'));
  const vault = newVault();
  let testChain: TestChain | null = null;
  let localHost: LocalRepoHost | null = null;
  let fakeHost: FakeRepoHost | null = null;
  let repoHost: RepoHost;
  const database = await openTestDatabase();
  if (opts.real) {
    [testChain, localHost] = await Promise.all([
      startTestChain(),
      startLocalRepoHost({
        dataDir: join(tmp, 'repos'),
        port: 0,
        webhook: { url: null, secret: WEBHOOK_SECRET },
        platformToken: PLATFORM_TOKEN,
      }),
    ]);
    repoHost = new GithubHost({
      kind: 'local',
      apiUrl: localHost.apiUrl,
      org: localHost.org,
      token: PLATFORM_TOKEN,
      webhookSecret: WEBHOOK_SECRET,
    });
  } else {
    fakeHost = new FakeRepoHost();
    repoHost = fakeHost;
  }
  const chain = opts.chain ?? testChain?.chain ?? new FakeChain();
  const config = loadConfig({
    PORT: '0',
    RATE_LIMIT_PER_IP_PER_MINUTE: '100000',
    RATE_LIMIT_PER_KEY_PER_MINUTE: '100000',
    RATE_LIMIT_REGISTER_PER_IP_PER_HOUR: '100000',
    ...(localHost ? { GITHUB_ORG: localHost.org } : {}),
    ...opts.env,
  });
  const app = await buildApp({
    database,
    chain,
    clock: opts.clock ?? systemClock,
    config,
    repoHost,
    vault,
    runJobs: opts.real ?? false,
  });
  if (localHost) localHost.setAuthenticator((key) => app.services.agents.repoLoginForKey(key));
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  if (localHost) localHost.setWebhookUrl(`${base}/api/webhooks/github`);
  return {
    app,
    base,
    database,
    config,
    chain,
    testChain,
    localHost,
    fakeHost,
    vault,
    async close() {
      await app.close();
      await localHost?.stop();
      await database.close();
      await testChain?.stop();
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}

export interface OpenedPage {
  page: Page;
  /** Console errors and uncaught page errors so far; tests assert it stays empty. */
  errors: string[];
}

/** A new page (its own context: no shared cookies) at `width` × 800, recording script errors. */
export async function openPage(
  browser: Browser,
  url: string,
  opts: { width?: number; height?: number } = {},
): Promise<OpenedPage> {
  const context = await browser.newContext({
    viewport: { width: opts.width ?? DESKTOP_WIDTH, height: opts.height ?? 800 },
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    // A page that answers 4xx on purpose (a 404 page, a form sent back with 400) makes Chromium
    // log its own document's status; that is no script error. Any other failed load still counts.
    const documentStatus =
      msg.text().startsWith('Failed to load resource') && msg.location().url === page.url();
    if (!documentStatus) errors.push(`console: ${msg.text()} (${msg.location().url})`);
  });
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  const res = await page.goto(url, { waitUntil: 'load' });
  if (!res) throw new Error(`No response for ${url}`);
  return { page, errors };
}

export interface A11yViolation {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

const AXE_PATH = join(process.cwd(), 'node_modules', 'axe-core', 'axe.min.js');
let axeCode: string | null = null;
const axeSource = () => {
  axeCode ??= readFileSync(AXE_PATH, 'utf8');
  return axeCode;
};

/** axe-core's serious and critical violations on the page as it is now (WCAG 2 A/AA rules and best practices). */
export async function checkA11y(page: Page): Promise<A11yViolation[]> {
  // The callbacks run in the page, where window and document exist; this file compiles without the DOM types.
  // Evaluated, not added as a <script>: the pages' CSP (rightly) refuses inline scripts, and
  // turning the CSP off for tests (bypassCSP) would hide real violations.
  const loaded = await page.evaluate(() => 'axe' in globalThis);
  if (!loaded) await page.evaluate(axeSource());
  const violations = await page.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: axe and the DOM exist only in the page, untyped here
    const page = globalThis as any;
    const result = await page.axe.run(page.document, { resultTypes: ['violations'] });
    // biome-ignore lint/suspicious/noExplicitAny: axe's result objects
    return result.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact ?? 'unknown',
      help: v.help,
      // biome-ignore lint/suspicious/noExplicitAny: axe's node objects
      targets: v.nodes.map((n: any) => String(n.target)),
    }));
  });
  return (violations as A11yViolation[]).filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * Full-page PNGs of the page at desktop and phone width: `<name>-desktop.png`, `<name>-phone.png`
 * in test-artifacts/screenshots. The viewport is put back afterwards.
 */
export async function screenshot(page: Page, name: string): Promise<{ desktop: string; phone: string }> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const before = page.viewportSize() ?? { width: DESKTOP_WIDTH, height: 800 };
  const paths = {
    desktop: join(SCREENSHOT_DIR, `${name}-desktop.png`),
    phone: join(SCREENSHOT_DIR, `${name}-phone.png`),
  };
  await page.setViewportSize({ width: DESKTOP_WIDTH, height: 800 });
  await page.screenshot({ path: paths.desktop, fullPage: true });
  await page.setViewportSize({ width: PHONE_WIDTH, height: 800 });
  await page.screenshot({ path: paths.phone, fullPage: true });
  await page.setViewportSize(before);
  return paths;
}
