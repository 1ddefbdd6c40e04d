import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokensToUnits } from '../src/infra/chain/chain.ts';
import { createProject, markProjectActive, randomAddress, registerAgent } from './helpers/app.ts';
import { appForFile } from './helpers/builders.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { journaledWallet } from './helpers/journaled-wallet.ts';
import { SseClient } from './helpers/sse.ts';
import { newVault } from './helpers/wallets.ts';
import { type Browserless, browserless } from './helpers/web-forms.ts';

/**
 * The wallet section of My work lists the agent's recent wallet transactions: what each did, its
 * status in words and its hash linked to the explorer. A transaction still pending when the
 * service answered (the JSON routes' 202; the console's flash says so) settles on the page without
 * a reload: the console's event stream carries wallet.tx_confirmed / wallet.tx_failed, and the
 * page's live part is re-read on them (console-live.js follows `data-live-any`). The FakeChain's
 * wallet records through the transaction engine (helpers/journaled-wallet.ts).
 */

const EXPLORER = 'https://explorer.example';
const TOKEN = 10n ** 18n;
let base: string;
let web: Browserless;
let wallet: ReturnType<typeof journaledWallet>;
let projectId: string;
let session: string;
let stream: SseClient;

const chain = new FakeChain();
const ctx = appForFile({ chain, vault: newVault(), env: { CHAIN_EXPLORER_URL: EXPLORER } });
beforeAll(async () => {
  wallet = journaledWallet(ctx, chain);
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  web = browserless(ctx.app);
  const founder = await registerAgent(ctx.app);
  projectId = (await createProject(ctx.app, founder, { name: 'Wallet Works', token_symbol: 'WALW' })).id;
  const { tokenAddress } = await markProjectActive(ctx, projectId);
  // The factory's curve (a = 1e12 wei, b = 1e3 wei) with 10,000 tokens minted: the wallet reads it.
  const curve = (await ctx.app.services.projects.require(projectId)).curveAddress as string;
  chain.setCurve(curve, { a: 10n ** 12n, b: 1000n, supplyUnits: tokensToUnits(10_000) });
  await ctx.app.services.holdings.refreshMissingCurves();
  const dev = await registerAgent(ctx.app, { wallet_address: null });
  chain.setFundsUnits(tokenAddress, dev.walletAddress as string, 100n * TOKEN, 0n);
  session = await web.signIn(dev.apiKey);
  // The stream the page follows, opened as the browser opens it: with the session cookie.
  stream = await SseClient.open(base, '/console/events', { cookie: session });
});

afterAll(async () => {
  stream?.close();
});

/** The row of one transaction in the wallet section. */
function rowOf(html: string, id: string): string {
  const m = new RegExp(`<tr id="wallet-tx-${id}" data-status="[a-z]+">[\\s\\S]*?</tr>`).exec(html);
  expect(m, `row of ${id}`).not.toBeNull();
  return m?.[0] ?? '';
}
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
const flashOf = (html: string) => /class="flash flash-ok"[^>]*><p>([^<]*)<\/p>/.exec(html)?.[1] ?? '';

describe('wallet transactions on My work', () => {
  it('follows wallet events: the stream types and the live part name them; nothing listed yet', async () => {
    const page = (await web.get(session, '/console')).body;
    expect(page).toMatch(
      /data-live-for="overview-live"[^>]*data-live-types="[^"]*\bwallet\.tx_confirmed wallet\.tx_failed\b/,
    );
    expect(page).toMatch(
      /<div id="overview-live"[^>]*data-live-any="[^"]*\bwallet\.tx_confirmed wallet\.tx_failed\b/,
    );
    // Nothing yet: the section says what will be listed there.
    expect(textOf(page)).toContain(
      'No transactions yet: your buys, sales, allowances and withdraws are listed here',
    );
  });

  it('lists a sale still pending, then shows it confirmed once it mines', async () => {
    wallet.state.outcome = 'pending';
    const { page } = await web.submit(session, `/console/projects/${projectId}/sell`, {
      tokens_units: (10n * TOKEN).toString(),
    });
    const [tx] = wallet.sent.slice(-1);
    const { intentId: id, hash } = tx as { intentId: string; hash: string };
    expect(flashOf(page.body)).toBe(
      `Sale sent: transaction ${hash} is still pending (${id}). It settles on its own: Recent transactions, under Wallet on My work, shows when it does.`,
    );
    const pending = rowOf(page.body, id);
    expect(pending).toContain('data-status="pending"');
    expect(textOf(pending)).toMatch(
      /^Sale · Wallet Works \d{4}-\d\d-\d\d \d\d:\d\d Pending: sent, not mined yet/,
    );
    expect(pending).toContain(`<a href="/projects/${projectId}">Wallet Works</a>`);
    expect(pending).toContain(
      `<a href="${EXPLORER}/tx/${hash}" rel="noopener noreferrer" class="tx-link"><code title="${hash}">`,
    );
    expect(pending).toContain('class="status status-pending"');
    expect(textOf(page.body)).toContain('A pending transaction was sent and may still mine');

    await wallet.confirm(id);
    await stream.until(
      (c) => c.messages.some((m) => m.event === 'wallet.tx_confirmed'),
      20_000,
      'wallet.tx_confirmed',
    );
    const event = stream.messages.find((m) => m.event === 'wallet.tx_confirmed');
    expect(event?.data).toMatchObject({
      project_id: projectId,
      data: { transaction_id: id, kind: 'sell', tx_hash: hash },
    });
    // What console-live.js fetches on that event: the live part alone, the row settled.
    const part = await web.get(session, '/console?fragment=live');
    expect(part.body.trimStart()).toMatch(/^<div id="overview-live"/);
    const confirmed = rowOf(part.body, id);
    expect(confirmed).toContain('data-status="confirmed"');
    expect(confirmed).toContain('class="status status-approved"');
    expect(textOf(confirmed)).toContain('Confirmed received 0.01 ETH');
    expect(textOf(part.body)).not.toContain('A pending transaction was sent and may still mine');
  });

  it('shows a withdraw that failed on chain as failed, with the reason; newest first', async () => {
    wallet.state.outcome = 'pending';
    const to = randomAddress();
    const { page } = await web.submit(session, '/console/withdraw', { project_id: '', amount: '0.5', to });
    const [tx] = wallet.sent.slice(-1);
    const { intentId: id, hash } = tx as { intentId: string; hash: string };
    expect(flashOf(page.body)).toMatch(/^Withdraw sent: transaction 0x[0-9a-f]{64} is still pending/);
    expect(textOf(rowOf(page.body, id))).toMatch(/^ETH withdraw \d{4}-.* Pending: sent, not mined yet/);

    await wallet.revert(id);
    await stream.until(
      (c) => c.messages.some((m) => m.event === 'wallet.tx_failed'),
      20_000,
      'wallet.tx_failed',
    );
    expect(stream.messages.find((m) => m.event === 'wallet.tx_failed')?.data).toMatchObject({
      data: {
        transaction_id: id,
        kind: 'withdraw_eth',
        tx_hash: hash,
        reason: `The transaction reverted on chain (${hash}).`,
      },
    });
    const part = (await web.get(session, '/console?fragment=live')).body;
    const failed = rowOf(part, id);
    expect(failed).toContain('class="status status-rejected"');
    expect(textOf(failed)).toContain(`Failed: The transaction reverted on chain (${hash}).`);
    // Newest first: the withdraw, then the sale.
    const order = [...part.matchAll(/<tr id="wallet-tx-(wtx_[0-9a-f]+)"/g)].map((m) => m[1]);
    expect(order).toEqual([id, wallet.sent.at(-2)?.intentId]);
  });
});
