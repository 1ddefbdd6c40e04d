import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBounty, registerAgent, type TestAgent } from './helpers/app.ts';
import { type ActiveProject, activeProject, claim, ok, submit, UnitsChain } from './helpers/bounty-flows.ts';
import { appForFile, listening } from './helpers/builders.ts';
import { FakeRepoHost } from './helpers/fake-repo-host.ts';

/**
 * MCP resources and prompts through the SDK's client, as an agent host reads them: the bounty and
 * open-bounty resources for anyone, `me://work` and `me://wallet` for a caller with a key, and the
 * prompts filled with the live bounty. A contributor holds three bounties here, one in each state
 * `me://work` tells apart: claimed, sent back for changes, in review.
 */

const TTL_HOURS = 48;
const NOTES = 'Add a test for the empty input.';

const host = new FakeRepoHost();
const chain = new UnitsChain();
const clients: Client[] = [];
let dev: TestAgent;
let projects: ActiveProject[];
const b: Record<'open' | 'claimed' | 'revising' | 'reviewing', string> = {
  open: '',
  claimed: '',
  revising: '',
  reviewing: '',
};
let reviewingPr: string;

const ctx = appForFile({ chain, repoHost: host, env: { CLAIM_TTL_HOURS: String(TTL_HOURS) } });
const base = listening(ctx);
beforeAll(async () => {
  const first = await activeProject(ctx, chain);
  // One active claim per project: each held bounty is on a project of its own.
  projects = [first, await activeProject(ctx, chain, 1_000_000n, first.founder)];
  projects.push(await activeProject(ctx, chain, 1_000_000n, first.founder));
  const [pa, pb, pc] = projects as [ActiveProject, ActiveProject, ActiveProject];
  dev = await registerAgent(ctx.app);
  const bounty = async (p: ActiveProject, title: string) =>
    (await createBounty(ctx.app, p.founder, p.project.id, { title, reward_amount: 50 })).id;
  b.open = await bounty(pa, 'Nobody took this yet');
  b.claimed = await bounty(pa, 'Held, not submitted');
  b.revising = await bounty(pb, 'Sent back for changes');
  b.reviewing = await bounty(pc, 'Waiting for review');
  for (const id of [b.claimed, b.revising, b.reviewing]) ok(await claim(ctx.app, dev, id));
  ok(await submit(ctx.app, dev, b.revising, pb.repoUrl, 1), 201);
  ok(
    await ctx.app.inject({
      method: 'POST',
      url: `/api/bounties/${b.revising}/request-changes`,
      headers: pb.founder.headers,
      payload: { review_notes: NOTES },
    }),
  );
  ok(await submit(ctx.app, dev, b.reviewing, pc.repoUrl, 7), 201);
  reviewingPr = `${pc.repoUrl}/pull/7`;
  const [owner, repo] = new URL(pc.repoUrl).pathname.split('/').filter(Boolean) as [string, string];
  host.setFiles(owner, repo, 7, [
    {
      filename: 'src/parse.ts',
      status: 'modified',
      additions: 3,
      deletions: 1,
      patch: '@@ -1 +1,3 @@\n-old\n+new',
    },
    { filename: 'test/parse.test.ts', status: 'added', additions: 9, deletions: 0, patch: null },
  ]);
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
});

async function connect(agent?: TestAgent): Promise<Client> {
  const client = new Client({ name: 'mcp-resources-test', version: '1.0.0' });
  const headers: Record<string, string> = agent ? { authorization: `Bearer ${agent.apiKey}` } : {};
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base()}/mcp`), { requestInit: { headers } }),
  );
  clients.push(client);
  return client;
}

const json = (res: ReadResourceResult) => {
  const [content] = res.contents;
  expect(content?.mimeType).toBe('application/json');
  return JSON.parse((content as { text: string }).text);
};
const api = async (url: string, agent?: TestAgent) =>
  (await ctx.app.inject({ method: 'GET', url, headers: agent?.headers ?? {} })).json();
const text = (res: GetPromptResult) =>
  res.messages.map((m) => (m.content.type === 'text' ? m.content.text : '')).join('\n');

/** The JSON-RPC error a rejected request carries. */
async function rpcError(
  request: Promise<unknown>,
): Promise<{ code: number; message: string; data: unknown }> {
  const err = await request.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).not.toBeNull();
  return err as { code: number; message: string; data: unknown };
}

describe('MCP resources', () => {
  it('declares resources and prompts, and lists them with the bounty template', async () => {
    const client = await connect();
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {} });
    const uris = (await client.listResources()).resources.map((r) => r.uri);
    expect(uris).toEqual(expect.arrayContaining(['bounties://open', 'me://work', 'me://wallet']));
    // The open payable bounties are listed as concrete bounty:// resources; held ones are not.
    expect(uris).toContain(`bounty://${b.open}`);
    expect(uris).not.toContain(`bounty://${b.claimed}`);
    const templates = (await client.listResourceTemplates()).resourceTemplates;
    expect(templates.map((t) => t.uriTemplate)).toEqual(['bounty://{id}']);
  });

  it('reads a bounty and the open bounties without a key, as the JSON routes answer them', async () => {
    const client = await connect();
    const read = json(await client.readResource({ uri: `bounty://${b.revising}` }));
    expect(read).toEqual(await api(`/api/bounties/${b.revising}`));
    expect(read.bounty.submissions[0]).toMatchObject({ status: 'changes_requested', review_notes: NOTES });
    const open = json(await client.readResource({ uri: 'bounties://open' }));
    expect(open).toEqual(await api('/api/bounties?status=open&payable=true'));
    expect(open.bounties.map((x: { id: string }) => x.id)).toEqual([b.open]);
  });

  it('answers an unknown bounty with resource-not-found, and me:// without a key with unauthorized', async () => {
    const client = await connect();
    const missing = await rpcError(client.readResource({ uri: `bounty://bnt_${'0'.repeat(32)}` }));
    expect(missing.code).toBe(-32002);
    expect(missing.data).toMatchObject({ code: 'not_found' });
    for (const uri of ['me://work', 'me://wallet']) {
      const refused = await rpcError(client.readResource({ uri }));
      expect(refused.code, uri).toBe(-32602);
      expect(refused.data, uri).toMatchObject({ code: 'unauthorized' });
      expect(refused.message, uri).toMatch(/Authorization: Bearer/);
    }
  });

  it("reads the caller's work by what it needs, with notes and deadlines, and its wallet", async () => {
    const client = await connect(dev);
    const work = json(await client.readResource({ uri: 'me://work' }));
    const claimedAt = (await api(`/api/bounties/${b.claimed}`)).bounty.claimed_at;
    expect(work.claimed).toEqual([
      expect.objectContaining({
        bounty_id: b.claimed,
        claimed_at: claimedAt,
        claim_expires_at: new Date(Date.parse(claimedAt) + TTL_HOURS * 3_600_000).toISOString(),
        next: expect.stringContaining('submit_pull_request'),
      }),
    ]);
    const revising = (await api(`/api/bounties/${b.revising}`)).bounty;
    expect(work.changes_requested).toEqual([
      expect.objectContaining({
        bounty_id: b.revising,
        review_notes: NOTES,
        revision_due_at: revising.revision_due_at,
        pr_url: `${projects[1]?.repoUrl}/pull/1`,
      }),
    ]);
    expect(revising.revision_due_at).toEqual(expect.any(String));
    expect(work.in_review).toEqual([
      expect.objectContaining({ bounty_id: b.reviewing, pr_url: reviewingPr, payment_owed: false }),
    ]);
    // Earnings are read from the database: nothing was approved yet.
    expect(work.earnings).toEqual({ completed: 0, earned_eth_units: '0', projects: [] });
    // This fake chain holds no wallets: me://wallet fails as GET /api/agents/me/wallet does.
    const route = (await api('/api/agents/me/wallet', dev)).error;
    const read = await rpcError(client.readResource({ uri: 'me://wallet' }));
    expect(read.data).toEqual({ code: route.code, message: route.message });
  });
});

describe('MCP prompts', () => {
  it('lists the prompts with their arguments', async () => {
    const prompts = (await (await connect()).listPrompts()).prompts;
    expect(prompts.map((p) => p.name).sort()).toEqual(['cash_out', 'review_submission', 'work_on_bounty']);
    const work = prompts.find((p) => p.name === 'work_on_bounty');
    expect(work?.arguments).toEqual([expect.objectContaining({ name: 'bounty_id', required: true })]);
    const cash = prompts.find((p) => p.name === 'cash_out');
    expect(cash?.arguments).toEqual([expect.objectContaining({ name: 'to_address', required: false })]);
  });

  it('work_on_bounty walks the whole journey for the bounty, which it embeds', async () => {
    const res = await (await connect()).getPrompt({
      name: 'work_on_bounty',
      arguments: { bounty_id: b.open },
    });
    const steps = text(res);
    for (const tool of [
      'claim_bounty',
      'repo_credentials',
      'git push',
      'open_pull_request',
      'submit_pull_request',
    ])
      expect(steps).toContain(tool);
    expect(steps).toMatch(/request_changes.*revision_due_at/);
    expect(steps).toContain(`${TTL_HOURS} hours`);
    const embedded = res.messages.find((m) => m.content.type === 'resource')?.content;
    expect(embedded).toMatchObject({ type: 'resource', resource: { uri: `bounty://${b.open}` } });
  });

  it("work_on_bounty starts a claimant sent back for changes at the founder's notes", async () => {
    const res = await (await connect(dev)).getPrompt({
      name: 'work_on_bounty',
      arguments: { bounty_id: b.revising },
    });
    const revising = (await api(`/api/bounties/${b.revising}`)).bounty;
    expect(text(res)).toContain(NOTES);
    expect(text(res)).toContain(revising.revision_due_at);
  });

  it('review_submission shows the founder the report and the diff, and the three decisions', async () => {
    const founder = projects[2]?.founder as TestAgent;
    const res = await (await connect(founder)).getPrompt({
      name: 'review_submission',
      arguments: { bounty_id: b.reviewing },
    });
    const body = text(res);
    expect(body).toContain(reviewingPr);
    expect(body).toContain('src/parse.ts (modified, +3 -1)');
    expect(body).toContain('test/parse.test.ts (added, +9 -0)');
    expect(body).toContain('+new');
    for (const tool of ['approve_submission', 'request_changes', 'reject_submission'])
      expect(body).toContain(tool);
    expect(body).not.toContain('you are not this project');
    // Someone else is told the tools will refuse it.
    const other = await (await connect(dev)).getPrompt({
      name: 'review_submission',
      arguments: { bounty_id: b.reviewing },
    });
    expect(text(other)).toContain("you are not this project's founder");
  });

  it('cash_out says my_wallet, then sell_tokens, then withdraw to the address given', async () => {
    const to = `0x${'ab'.repeat(20)}`;
    const body = text(
      await (await connect(dev)).getPrompt({ name: 'cash_out', arguments: { to_address: to } }),
    );
    expect(body.indexOf('my_wallet')).toBeLessThan(body.indexOf('sell_tokens'));
    expect(body).toContain(`withdraw {to: "${to}"`);
  });

  it('answers a prompt for an unknown bounty with not_found', async () => {
    const err = await rpcError(
      (await connect()).getPrompt({ name: 'work_on_bounty', arguments: { bounty_id: 'bnt_nothing' } }),
    );
    expect(err.code).toBe(-32002);
    expect(err.data).toMatchObject({ code: 'not_found' });
  });
});
