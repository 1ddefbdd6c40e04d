import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { foldName, stripHidden } from '../src/lib/text.ts';
import { createBounty, createProject, expectError, registerAgent } from './helpers/app.ts';
import { appForFile } from './helpers/builders.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { approve, getBounty, inReview, post, reject, scene } from './helpers/review-flow.ts';

/** Every character the contract refuses in names and titles and removes from descriptions. */
const HIDDEN = [
  '\u0000',
  '\u0001',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u009f',
  '\u061c',
  '\u200e',
  '\u200f',
  '\u202a',
  '\u202e',
  '\u2066',
  '\u2069',
];

describe('names and text (closed to abuse)', () => {
  const chain = new FakeChain();
  let n = 0;
  const fresh = () => `nt${process.pid}x${Date.now().toString(36)}x${++n}`;
  const ctx = appForFile({ chain });

  const register = (payload: Record<string, unknown>) =>
    ctx.app.inject({ method: 'POST', url: '/api/agents/register', payload });

  describe('agent names are unique after folding', () => {
    it('refuses lookalikes of s1-founder with name_taken', async () => {
      const base = fresh();
      expect((await register({ name: `${base}-founder` })).statusCode).toBe(201);
      for (const lookalike of [
        `${base}_founder`,
        `${base}.founder`,
        `${base} founder`,
        `${base.toUpperCase()} Founder`,
        `${base}--founder`,
        `${base}  founder`,
        `${base}_-.founder`,
      ]) {
        expectError(await register({ name: lookalike }), 409, 'name_taken');
      }
      // Different words are still different names.
      expect((await register({ name: `${base}-founders` })).statusCode).toBe(201);
    });

    it('refuses "a  b" next to "a b", and the other way round', async () => {
      const base = fresh();
      expect((await register({ name: `${base}  b` })).statusCode).toBe(201);
      expectError(await register({ name: `${base} b` }), 409, 'name_taken');
      expectError(await register({ name: `${base}-B` }), 409, 'name_taken');
    });

    it('folds NFKC, case and separators the way the migration backfill does in SQL', async () => {
      const samples = [
        's1-founder',
        'S1_Founder',
        'a..b',
        'A - _ . B',
        'x',
        'ab-',
        '-ab',
        'Ｓ１ Ｆｏｕｎｄｅｒ',
      ];
      for (const name of samples) {
        const rows = await ctx.database.db.execute<{ f: string }>(
          sql`select btrim(regexp_replace(lower(normalize(${name}, NFKC)), '[-_. ]+', ' ', 'g'), ' ') as f`,
        );
        const row = (Array.isArray(rows) ? rows[0] : (rows as { rows: { f: string }[] }).rows[0]) as {
          f: string;
        };
        expect(row.f, name).toBe(foldName(name));
      }
      expect(foldName('Ｓ１ Ｆｏｕｎｄｅｒ')).toBe('s1 founder');
      expect(foldName('S1  Founder')).toBe(foldName('s1-founder'));
    });
  });

  describe('control and bidi-override characters', () => {
    it('refuses them in agent names (400 naming the field)', async () => {
      for (const c of ['\u0001', '\u202e', '\u2066']) {
        const err = expectError(await register({ name: `ab${c}cd${fresh()}` }), 400, 'validation_error');
        expect(err.details?.map((d) => d.field)).toContain('name');
      }
    });

    it('refuses them in project names and bounty titles, naming the field', async () => {
      const founder = await registerAgent(ctx.app);
      for (const c of HIDDEN) {
        const res = await post(ctx.app, '/api/projects', founder, {
          name: `Project ${c}evil`,
          token_symbol: 'NTX',
        });
        const err = expectError(res, 400, 'validation_error');
        expect(
          err.details?.map((d) => d.field),
          JSON.stringify(c),
        ).toContain('name');
      }
      const s = await scene(ctx, chain);
      for (const c of HIDDEN) {
        const res = await post(ctx.app, `/api/projects/${s.project.id}/bounties`, s.founder, {
          title: `Fix ${c}gnp.exe`,
          description: 'Do it.',
          reward_amount: 10,
        });
        const err = expectError(res, 400, 'validation_error');
        expect(
          err.details?.map((d) => d.field),
          JSON.stringify(c),
        ).toContain('title');
      }
    });

    it('removes them from descriptions, keeping line breaks and tabs', async () => {
      // NUL is refused in every request body by the request guards (PostgreSQL cannot store it).
      const shown = HIDDEN.filter((c) => c !== '\u0000').join('');
      expect(stripHidden(`a\u0000b`)).toBe('ab');
      const dirty = `line\u0001 one\u202e\n\tline\u200f two\r\n${shown}end`;
      const clean = 'line one\n\tline two\r\nend';
      expect(stripHidden(dirty)).toBe(clean);

      const res = await register({ name: fresh(), description: dirty });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().agent.description).toBe(clean);

      const founder = await registerAgent(ctx.app);
      const project = await createProject(ctx.app, founder, { description: dirty });
      const got = await ctx.app.inject({ method: 'GET', url: `/api/projects/${project.id}` });
      expect(got.json().project.description).toBe(clean);

      const s = await scene(ctx, chain);
      const bounty = await createBounty(ctx.app, s.founder, s.project.id, { description: dirty });
      expect((await getBounty(ctx.app, bounty.id)).description).toBe(clean);

      const empty = await post(ctx.app, `/api/projects/${s.project.id}/bounties`, s.founder, {
        title: 'Only hidden',
        description: '\u202e\u0001',
        reward_amount: 10,
      });
      const err = expectError(empty, 400, 'validation_error');
      expect(err.details?.map((d) => d.field)).toContain('description');
    });
  });

  describe('review notes need a visible character', () => {
    it('refuses notes of only spaces or invisible characters on reject, request-changes and approve', async () => {
      const s = await scene(ctx, chain);
      const { bounty } = await inReview(ctx.app, s);
      for (const notes of ['   ', '\t\n ', '\u200b\u200e', '\u00a0\u3000']) {
        for (const res of [
          await reject(ctx.app, s.founder, bounty.id, { review_notes: notes }),
          await post(ctx.app, `/api/bounties/${bounty.id}/request-changes`, s.founder, {
            review_notes: notes,
          }),
          await approve(ctx.app, s.founder, bounty.id, { review_notes: notes }),
        ]) {
          const err = expectError(res, 400, 'validation_error');
          expect(
            err.details?.map((d) => d.field),
            JSON.stringify(notes),
          ).toContain('review_notes');
        }
      }
      expect((await getBounty(ctx.app, bounty.id)).status).toBe('in_review');
      const ok = await reject(ctx.app, s.founder, bounty.id, { review_notes: '  Not what was asked. ' });
      expect(ok.statusCode, ok.body).toBe(200);
    });
  });
});
