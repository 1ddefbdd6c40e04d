import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import helmet from 'helmet';
import { formatEther } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { SECURITY_HEADERS } from '../src/infra/http/security-headers.ts';
import { formatEth } from '../src/web/public/format.ts';
import { createBounty, registerAgent, type TestAgent } from './helpers/app.ts';
import { appForFile, fundedProject } from './helpers/builders.ts';
import { FakeChain } from './helpers/fake-chain.ts';

/** The public pages through app.inject: status codes, escaping, headers, filters in the URL. */

const chain = new FakeChain();
const ctx = appForFile({ chain });
let founder: TestAgent;
let project: { id: string; token_symbol: string };
let curve: string;
let parserBounty: { id: string };
let evilBounty: { id: string };

beforeAll(async () => {
  founder = await registerAgent(ctx.app, { name: 'Founder Alice' });
  // 10,000 tokens minted on the factory's curve.
  const active = await fundedProject(ctx, chain, {
    founder,
    name: 'Parser Works',
    funds: 6000n,
    curveSupply: 10_000,
  });
  project = active.project;
  curve = active.curveAddress;
  const { tokenAddress } = active;
  parserBounty = await createBounty(ctx.app, founder, project.id, {
    title: 'Fix the parser crash',
    difficulty: 'hard',
    reward_amount: 100,
  });
  evilBounty = await createBounty(ctx.app, founder, project.id, {
    title: '<script>alert("x")</script> in titles',
    reward_amount: 5000,
  });
  // The founder's funds fall to 1,000 tokens: the older bounty is still covered, the newer not.
  chain.setFunds(tokenAddress, founder.walletAddress as string, 1000n, 1000n);
  await ctx.app.services.payability.refresh(project.id);
});

const get = (url: string) => ctx.app.inject({ method: 'GET', url });

describe('the board', () => {
  it('is HTML with the strict CSP and security headers', async () => {
    const res = await get('/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body).toContain('<main id="main"');
    expect(res.body).toContain('href="/sign-in"');
    expect(res.body).toContain('href="/llms.txt"');
  });

  it('sends on every page, refusals included, exactly the headers helmet sets for SECURITY_HEADERS', async () => {
    // What helmet's own middleware writes on a real response.
    const response = new ServerResponse(new IncomingMessage(new Socket()));
    helmet(SECURITY_HEADERS)(response.req, response, () => {});
    const expected = response.getHeaders();
    expect(Object.keys(expected).length).toBeGreaterThan(8);
    const pages = [
      await get('/'),
      await get('/?fragment=list'),
      await get('/?difficulty=impossible'),
      await get(`/bounties/${parserBounty.id}`),
      await get('/sign-in'),
      await get('/sign-up'),
      await get('/console'),
      // A form refused before its handler (no CSRF token).
      await ctx.app.inject({
        method: 'POST',
        url: '/sign-in',
        payload: 'api_key=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
    ];
    for (const res of pages) {
      for (const [name, value] of Object.entries(expected)) expect(res.headers[name], name).toBe(value);
    }
    for (const url of ['/api/bounties', '/openapi.json', '/livez']) {
      const res = await get(url);
      for (const name of Object.keys(expected)) expect(res.headers[name], `${url} ${name}`).toBeUndefined();
    }
  });

  it('escapes a title with a script tag', async () => {
    const res = await get('/');
    expect(res.body).not.toContain('<script>alert');
    expect(res.body).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    const page = await get(`/bounties/${evilBounty.id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('<script>alert');
  });

  it('shows reward, ETH worth on the curve and payability as text', async () => {
    const res = await get('/');
    const card = cardOf(res.body, parserBounty.id);
    expect(card).toContain('100 ');
    expect(card).toContain(project.token_symbol);
    // Selling the contributor's 95 of 10,000 tokens: R(10000) - R(9905), in wei, less 1%.
    expect(card).toMatch(/≈ 0\.000\d+ ETH/);
    expect(card).toContain('Payable');
    // 100 + 5000 > 1000 tokens of funds: the newer, bigger bounty is not payable.
    expect(cardOf(res.body, evilBounty.id)).toContain('Not payable');
    expect(card).toContain('No reviews yet');
    expect(card).toMatch(/<time datetime="\d{4}-\d\d-\d\dT[^"]+Z"/);
  });

  it('takes the API query parameters from its URL and fills the form with them', async () => {
    const res = await get('/?q=parser&difficulty=hard');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(parserBounty.id);
    expect(res.body).not.toContain(evilBounty.id);
    expect(res.body).toContain('value="parser"');
    expect(res.body).toMatch(/<option value="hard" selected>/);
    const none = await get('/?payable=true&q=titles');
    expect(none.body).not.toContain(evilBounty.id);
    const notPayable = await get('/?payable=false');
    expect(notPayable.body).toContain(evilBounty.id);
    expect(notPayable.body).not.toContain(parserBounty.id);
  });

  it('paginates with links that keep the filters', async () => {
    const res = await get('/?limit=1&difficulty=');
    expect(res.body).toContain('2 bounties');
    expect(res.body).toMatch(/href="\/\?limit=1&amp;offset=1"/);
    const next = await get('/?limit=1&offset=1');
    expect(next.body).toMatch(/href="\/\?limit=1&amp;offset=0"/);
  });

  it('answers invalid filters with a friendly page and 400, not a 500', async () => {
    for (const q of ['?difficulty=impossible', '?limit=0', '?offset=-3', '?payable=maybe', '?status=lost']) {
      const res = await get(`/${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('We could not use that filter');
    }
  });

  it('returns only the list for the live refresh', async () => {
    const res = await get('/?q=parser&fragment=list');
    expect(res.statusCode).toBe(200);
    expect(res.body.trimStart().startsWith('<section id="board-list"')).toBe(true);
    expect(res.body).not.toContain('<html');
    expect(res.body).toContain('hx-get="/?q=parser&amp;fragment=list"');
  });

  it('shows "—" for the ETH worth when the curve cannot be read, and still renders', async () => {
    const { project: other } = await fundedProject(ctx, chain, { founder, name: 'Unreadable', funds: 1000n });
    const b = await createBounty(ctx.app, founder, other.id, { title: 'No curve here' });
    const res = await get(`/?project_id=${other.id}`);
    expect(res.statusCode).toBe(200);
    expect(cardOf(res.body, b.id)).toContain('—');
  });
});

describe('public pages', () => {
  it('renders a bounty, a project and an agent', async () => {
    const bounty = await get(`/bounties/${parserBounty.id}`);
    expect(bounty.statusCode).toBe(200);
    expect(bounty.body).toContain('Fix the parser crash');
    expect(bounty.body).toContain('No submissions yet');
    expect(bounty.headers['content-security-policy']).toBeDefined();

    const proj = await get(`/projects/${project.id}`);
    expect(proj.statusCode).toBe(200);
    expect(proj.body).toContain('Parser Works');
    expect(proj.body).toContain('<svg');
    expect(proj.body).toContain('ETH per');
    expect(proj.body).toContain(curve);

    const agent = await get(`/agents/${founder.id}`);
    expect(agent.statusCode).toBe(200);
    expect(agent.body).toContain('Founder Alice');
    expect(agent.body).toContain('Nothing earned yet');
  });

  it('answers unknown and malformed ids with an HTML 404 page', async () => {
    for (const url of [
      '/bounties/bnt_00000000-0000-7000-8000-000000000000',
      '/bounties/nope',
      '/projects/proj_x',
      `/projects/${parserBounty.id}`,
      '/agents/agent_%3Cscript%3E',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.body).toContain('Not found');
      expect(res.body).not.toContain('<script>');
    }
  });

  it('keeps the JSON API as it was', async () => {
    const res = await get('/api/bounties?q=parser');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-security-policy']).toBeUndefined();
  });
});

describe('the agent page', () => {
  it('shows what the agent earned and what that sells for on the curve now', async () => {
    const dev = await registerAgent(ctx.app, { name: 'Dev Bob' });
    const post = (url: string, agent: TestAgent, payload?: object) =>
      ctx.app.inject({ method: 'POST', url, headers: agent.headers, ...(payload ? { payload } : {}) });
    const repoUrl = (await ctx.app.services.projects.get(project.id)).repo_url as string;
    expect((await post(`/api/bounties/${parserBounty.id}/claim`, dev)).statusCode).toBe(200);
    const sub = await post(`/api/bounties/${parserBounty.id}/submit`, dev, { pr_url: `${repoUrl}/pull/1` });
    expect(sub.statusCode, sub.body).toBe(201);
    const approved = await post(`/api/bounties/${parserBounty.id}/approve`, founder);
    expect(approved.statusCode, approved.body).toBe(200);

    const res = await get(`/agents/${dev.id}`);
    expect(res.statusCode).toBe(200);
    const { projects, earned_eth_units } = await ctx.app.services.wallets.earnings(dev.id);
    const wei = BigInt(projects[0]?.earned_eth_units as string);
    expect(wei).toBeGreaterThan(0n);
    // 100 tokens less the 5% fee, and their worth: at most 6 significant digits, every one in the title.
    expect(res.body).toContain(`<span title="95 ${project.token_symbol}">95 ${project.token_symbol}</span>`);
    expect(res.body).toContain(`<span title="${formatEther(wei)} ETH">≈ ${formatEth(wei)} ETH</span>`);
    expect(formatEth(wei)).toMatch(/^0\.0*[1-9][0-9]{0,5}$/);
    expect(res.body).toMatch(
      new RegExp(
        `title="${formatEther(BigInt(earned_eth_units))} ETH">≈ [0-9.]+ ETH</span> <span class="stat-label">earnings worth now</span>`,
      ),
    );
    expect(res.body).toMatch(
      /<span class="stat-value">1<\/span> <span class="stat-label">bounties completed/,
    );
  });
});

/** The markup of one bounty's card on the board. */
function cardOf(html: string, id: string): string {
  const start = html.indexOf(`data-bounty-id="${id}"`);
  expect(start, `card of ${id}`).toBeGreaterThan(-1);
  const end = html.indexOf('</li>', start);
  return html.slice(start, end);
}
