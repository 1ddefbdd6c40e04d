import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { activityEvents } from '../src/infra/db/schema.ts';
import { expectError, registerAgent, type TestAgent } from './helpers/app.ts';
import { listening, webhookApp } from './helpers/builders.ts';
import { cliInProcess } from './helpers/cli-in-process.ts';
import { FakeRepoHost } from './helpers/fake-repo-host.ts';
import { browserless, errorsOf } from './helpers/web-forms.ts';

/**
 * A conversation on every bounty: any registered agent writes (Markdown, 1-4000 characters, a
 * visible character), anyone reads, oldest first, the founder's and the claimant's marked; the
 * founder and the claimant get `bounty.commented` for what they did not write.
 */

const { ctx, kit } = webhookApp(new FakeRepoHost());
const base = listening(ctx);

const post = (bountyId: string, who: TestAgent | null, payload: unknown) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/bounties/${bountyId}/comments`,
    headers: who ? who.headers : {},
    payload: payload as Record<string, unknown>,
  });
const list = async (bountyId: string, query = '') => {
  const res = await ctx.app.inject({ method: 'GET', url: `/api/bounties/${bountyId}/comments${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    comments: { id: string; author_id: string; author_role: string | null; body: string }[];
    total: number;
  };
};
const commentedFor = async (bountyId: string) =>
  (
    await ctx.database.db
      .select()
      .from(activityEvents)
      .where(eq(activityEvents.bountyId, bountyId))
      // In the order they happened: without ORDER BY, PostgreSQL may return a row an update moved
      // (seen in CI on 2026-11-28) out of it.
      .orderBy(asc(activityEvents.id))
  ).filter((e) => e.type === 'bounty.commented');

describe('bounty comments', () => {
  it('a question and an answer: stored, listed oldest first with roles, told to the other side only', async () => {
    const s = await kit.inReview(30);
    const stranger = await registerAgent(ctx.app);
    const q = await post(s.bounty.id, s.dev, { body: 'Does **the parser** need `tests`?' });
    expect(q.statusCode, q.body).toBe(201);
    const question = q.json().comment;
    expect(question).toMatchObject({
      bounty_id: s.bounty.id,
      author_id: s.dev.id,
      author_name: s.dev.name,
      author_role: 'claimant',
      body: 'Does **the parser** need `tests`?',
    });
    expect(question.id).toMatch(/^cmt_[0-9a-f]{32}$/);
    const a = await post(s.bounty.id, s.founder, { body: 'Yes, one per case.' });
    expect(a.statusCode).toBe(201);
    const c = await post(s.bounty.id, stranger, { body: 'Following.' });
    expect(c.statusCode).toBe(201);

    const thread = await list(s.bounty.id);
    expect(thread.total).toBe(3);
    expect(thread.comments.map((x) => [x.author_id, x.author_role])).toEqual([
      [s.dev.id, 'claimant'],
      [s.founder.id, 'founder'],
      [stranger.id, null],
    ]);
    expect((await list(s.bounty.id, '?limit=1&offset=1')).comments.map((x) => x.body)).toEqual([
      'Yes, one per case.',
    ]);

    const told = await commentedFor(s.bounty.id);
    expect(told.map((e) => [e.data.comment_id, [...(e.recipients ?? [])].sort()])).toEqual([
      [question.id, [s.founder.id]],
      [a.json().comment.id, [s.dev.id]],
      [c.json().comment.id, [s.founder.id, s.dev.id].sort()],
    ]);
    // Personal: never in the public feed.
    const feed = await ctx.app.inject({ method: 'GET', url: '/api/activity?limit=100' });
    expect(feed.body).not.toContain('bounty.commented');
  });

  it('refuses no key, an unknown bounty, empty, invisible, too long and extra fields, writing nothing', async () => {
    const s = await kit.inReview(30);
    expectError(await post(s.bounty.id, null, { body: 'hi' }), 401, 'unauthorized');
    expectError(await post(`bnt_${'0'.repeat(32)}`, s.dev, { body: 'hi' }), 404, 'not_found');
    expectError(await post('nonsense', s.dev, { body: 'hi' }), 404, 'not_found');
    for (const body of ['', '   ', '\u200b\u200b', 'x'.repeat(4001), 7]) {
      expectError(await post(s.bounty.id, s.dev, { body }), 400, 'validation_error');
    }
    expectError(await post(s.bounty.id, s.dev, { body: 'ok', extra: 1 }), 400, 'validation_error');
    expect(await post(s.bounty.id, s.dev, { body: 'x'.repeat(4000) })).toMatchObject({ statusCode: 201 });
    expect((await list(s.bounty.id)).total).toBe(1);
    const missing = await ctx.app.inject({
      method: 'GET',
      url: `/api/bounties/bnt_${'0'.repeat(32)}/comments`,
    });
    expectError(missing, 404, 'not_found');
  });

  it('keeps NUL-free text: control and bidi characters are stripped, Markdown source kept', async () => {
    const s = await kit.inReview(30);
    const res = await post(s.bounty.id, s.dev, { body: 'a\u202eb\u0001c <script>x</script>' });
    expect(res.statusCode).toBe(201);
    expect(res.json().comment.body).toBe('abc <script>x</script>');
    // A lone surrogate (valid JSON, no valid UTF-8) is stored as U+FFFD, never a 500 (FUZZ_SEED=1354561936).
    const lone = await post(s.bounty.id, s.dev, { body: 'ok \udfff lone text' });
    expect(lone.statusCode, lone.body).toBe(201);
    expect(lone.json().comment.body).toBe('ok \ufffd lone text');
  });

  it('on the bounty page: rendered as safe Markdown with roles, a form for the signed-in, a sign-in link otherwise', async () => {
    const s = await kit.inReview(30);
    const web = browserless(ctx.app);
    const session = await web.signIn(s.founder.apiKey);
    const sent = await web.post(session, `/bounties/${s.bounty.id}/comment`, {
      body: 'Use **one test** per case. <script>alert(1)</script> [x](javascript:alert(2))',
    });
    expect(sent.statusCode, errorsOf(sent.body).join(' | ')).toBe(303);
    expect(String(sent.headers.location)).toBe(`/bounties/${s.bounty.id}#comments`);
    expect(await post(s.bounty.id, s.dev, { body: 'Will do.' })).toMatchObject({ statusCode: 201 });

    const anon = (await ctx.app.inject({ method: 'GET', url: `/bounties/${s.bounty.id}` })).body;
    const thread = anon.slice(anon.indexOf('id="comments"'));
    expect(thread).toContain('<strong>one test</strong>');
    expect(thread).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(thread).not.toMatch(/<script|href="javascript/i);
    expect(thread).toMatch(/Founder<\/span>[\s\S]*Claimant<\/span>/);
    expect(thread).not.toContain('action="/bounties/');
    expect(thread).toContain(`/sign-in?next=%2Fbounties%2F${s.bounty.id}%23comments`);

    const mine = (await web.get(session, `/bounties/${s.bounty.id}`)).body;
    expect(mine).toContain(`action="/bounties/${s.bounty.id}/comment"`);
    // Signed in, the page follows the viewer's own stream, where bounty.commented arrives.
    expect(mine).toMatch(/data-live-stream="\/console\/events" data-live-types="[^"]*bounty\.commented/);

    // A blank comment is refused on the form, with what was typed kept.
    const blank = await web.post(session, `/bounties/${s.bounty.id}/comment`, { body: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.body).toContain('id="comment-error"');
    expect((await list(s.bounty.id)).total).toBe(2);
  });

  it('over MCP: comment_on_bounty writes through the same service; get_bounty and bounty_comments read it', async () => {
    const s = await kit.inReview(30);
    const client = new Client({ name: 'comments-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base()}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${s.dev.apiKey}` } },
      }),
    );
    try {
      const call = async (name: string, args: Record<string, unknown>) =>
        (await client.callTool({ name, arguments: args })) as CallToolResult;
      const sent = await call('comment_on_bounty', { bounty_id: s.bounty.id, body: 'Is *CI* required?' });
      expect(sent.isError, JSON.stringify(sent.content)).toBeFalsy();
      expect(sent.structuredContent).toMatchObject({
        comment: { author_id: s.dev.id, author_role: 'claimant', body: 'Is *CI* required?' },
      });
      const empty = await call('comment_on_bounty', { bounty_id: s.bounty.id, body: ' ' });
      expect(empty.isError).toBe(true);
      expect(empty.structuredContent).toMatchObject({ code: 'validation_error' });
      const got = (await call('get_bounty', { bounty_id: s.bounty.id })).structuredContent as {
        comments: { body: string }[];
        comments_total: number;
      };
      expect(got.comments.map((c) => c.body)).toEqual(['Is *CI* required?']);
      expect(got.comments_total).toBe(1);
      const listed = (await call('bounty_comments', { bounty_id: s.bounty.id })).structuredContent;
      expect(listed).toMatchObject({ total: 1, comments: [{ body: 'Is *CI* required?' }] });
      expect(await commentedFor(s.bounty.id)).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it('from the CLI: bounty comment posts, bounty comments reads, as text and JSON', async () => {
    const s = await kit.inReview(30);
    const tmp = mkdtempSync(join(tmpdir(), 'comments-cli-'));
    const cli = (who: TestAgent, args: string[]) =>
      cliInProcess(args, { apiUrl: base(), apiKey: who.apiKey, configHome: tmp });
    try {
      expect(await cli(s.founder, ['comment', s.bounty.id, 'Please add a **test**.'])).toMatch(
        new RegExp(`commented on ${s.bounty.id} \\(cmt_[0-9a-f]{32}\\)`),
      );
      const text = await cli(s.dev, ['comments', s.bounty.id]);
      expect(text).toContain(`${s.founder.name} (founder)`);
      expect(text).toContain('Please add a **test**.');
      expect(text).toContain('1 shown, 0 skipped, 1 in all');
      const json = JSON.parse(await cli(s.dev, ['comments', s.bounty.id, '--json']));
      expect(json).toEqual(await list(s.bounty.id));
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
