import type { LightMyRequestResponse } from 'fastify';
import { privateKeyToAccount } from 'viem/accounts';
import { expect } from 'vitest';
import type { TestApp } from './app.ts';
import type { FakeChain } from './fake-chain.ts';

/** The session's synchronizer token, as every form of a page carries it. */
export function csrfOf(html: string): string {
  const m = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!m?.[1]) throw new Error('no _csrf field on the page');
  return m[1];
}

/** The page's error texts: the summary, form-level and field-level messages. */
export function errorsOf(html: string): string[] {
  return [
    ...html.matchAll(/class="(?:form-error|field-error|flash flash-error)"[^>]*>([\s\S]*?)<\/(?:p|div)>/g),
  ].map((m) => (m[1] ?? '').replace(/<[^>]+>/g, '').trim());
}

export function expectNoStore(res: LightMyRequestResponse) {
  expect(res.headers['cache-control']).toBe('no-store');
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const encode = (fields: Record<string, string | string[]>) => {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) p.append(k, one);
  return p.toString();
};

/**
 * A browser without JavaScript over `app.inject`: forms posted urlencoded with the session
 * cookie, the page's CSRF token added unless a test says otherwise, redirects followed by hand
 * (carrying the flash cookie as a browser would).
 */
export function browserless(app: TestApp) {
  const signInRaw = (apiKey: string, next?: string, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/sign-in',
      headers: { ...FORM, ...headers },
      payload: encode({ api_key: apiKey, ...(next ? { next } : {}) }),
    });
  const get = (session: string, url: string, extraCookie = '') =>
    app.inject({
      method: 'GET',
      url,
      headers: { cookie: [session, extraCookie].filter(Boolean).join('; ') },
    });
  const tokens = new Map<string, string>();
  const tokenFor = async (session: string) => {
    let t = tokens.get(session);
    if (!t) {
      t = csrfOf((await get(session, '/console/account')).body);
      tokens.set(session, t);
    }
    return t;
  };
  const post = async (
    session: string,
    url: string,
    fields: Record<string, string | string[]>,
    opts: { csrf?: string | null; headers?: Record<string, string> } = {},
  ) => {
    const csrf = opts.csrf === undefined && session ? await tokenFor(session) : opts.csrf;
    return app.inject({
      method: 'POST',
      url,
      headers: { ...FORM, ...(session ? { cookie: session } : {}), ...opts.headers },
      payload: encode({ ...fields, ...(csrf ? { _csrf: csrf } : {}) }),
    });
  };
  return {
    signInRaw,
    get,
    post,
    async signIn(apiKey: string): Promise<string> {
      const res = await signInRaw(apiKey);
      expect(res.statusCode, res.body).toBe(303);
      const value = res.cookies.find((c) => c.name === 'bm_session')?.value;
      return `bm_session=${value}`;
    },
    /** Posts a form that must succeed (303) and returns the page it leads to, flash included. */
    async submit(session: string, url: string, fields: Record<string, string | string[]>) {
      const res = await post(session, url, fields);
      expect(res.statusCode, errorsOf(res.body).join(' | ') || res.body.slice(0, 500)).toBe(303);
      const flash = res.cookies.find((c) => c.name === 'bm_flash');
      const page = await get(
        session,
        String(res.headers.location),
        flash ? `bm_flash=${encodeURIComponent(flash.value)}` : '',
      );
      return { res, page, flash: flash?.value ?? null };
    },
  };
}
export type Browserless = ReturnType<typeof browserless>;

/**
 * A FakeChain whose in-app wallets can act: 10 ETH each, buys mint 1000 tokens per ETH, sells and
 * sends succeed, projects deploy at fresh addresses. Every call is recorded for the test to check.
 * The payout allowance is the FakeChain's own (`approvePayouts`), so the funds check sees it.
 */
export function stubWalletChain(chain: FakeChain) {
  const calls: { kind: string; from: string; args: unknown[] }[] = [];
  let n = 0;
  const hash = () => `0x${(++n).toString(16).padStart(64, 'a')}`;
  const from = (key: string) => privateKeyToAccount(key as `0x${string}`).address;
  const w = chain.wallets as unknown as Record<string, unknown>;
  w.ethBalance = async () => 10n * 10n ** 18n;
  w.tokenBalance = async () => 0n;
  w.buy = async (key: string, curve: string, ethUnits: bigint) => {
    calls.push({ kind: 'buy', from: from(key), args: [curve, ethUnits] });
    return { txHash: hash(), tokensUnits: ethUnits * 1000n };
  };
  w.sell = async (key: string, curve: string, tokensUnits: bigint) => {
    calls.push({ kind: 'sell', from: from(key), args: [curve, tokensUnits] });
    return { txHash: hash(), ethUnits: tokensUnits / 1000n };
  };
  w.sendEth = async (key: string, to: string, amount: bigint) => {
    calls.push({ kind: 'sendEth', from: from(key), args: [to, amount] });
    return { txHash: hash() };
  };
  w.sendToken = async (key: string, token: string, to: string, amount: bigint) => {
    calls.push({ kind: 'sendToken', from: from(key), args: [token, to, amount] });
    return { txHash: hash() };
  };
  const c = chain as unknown as Record<string, unknown>;
  let deployed = 0;
  /** When set, the next deployment waits for it (activation progress). */
  const gate: { next: Promise<void> | null } = { next: null };
  c.deployProject = async () => {
    const wait = gate.next;
    gate.next = null;
    if (wait) await wait;
    deployed++;
    const tail = deployed.toString(16).padStart(4, '0');
    return {
      tokenAddress: `0x${'7'.repeat(36)}${tail}`,
      curveAddress: `0x${'8'.repeat(36)}${tail}`,
    };
  };
  c.faucet = async (to: string, ethUnits: bigint) => {
    calls.push({ kind: 'faucet', from: to, args: [ethUnits] });
    return { txHash: hash() };
  };
  return Object.assign(chain, { calls, gate });
}
