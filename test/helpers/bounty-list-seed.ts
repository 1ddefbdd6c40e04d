import { sql } from 'drizzle-orm';
import type { Database } from '../../src/infra/db/client.ts';

/**
 * A deterministic data set for comparing GET /api/bounties answers across implementations: no
 * random(), no clock. 20 projects (16 active, every fourth with a curve in token_states), 3000
 * bounties with every status, difficulty and flag, created_at ties (broken by id), timestamps with
 * and without a fraction of a second, and words of every frequency: `zephyr` (~1%), `common`
 * (half of the rows: more than the keyword total's bound), `alpha beta` together, `node-20`.
 */
export const SEED_BOUNTIES = 3000;
export const SEED_PROJECTS = 20;
export const projectId = (p: number) => `proj_${p.toString(16).padStart(32, '0')}`;
const hexId = (prefix: string, n: string) => `'${prefix}_' || lpad(to_hex(${n}), 32, '0')`;
const T0 = "timestamptz '2025-01-01 00:00:00+00'";

export async function seedBountyList(database: Database): Promise<void> {
  const run = (text: string) => database.db.execute(sql.raw(text));
  const claimers = Math.ceil(SEED_BOUNTIES / SEED_PROJECTS);
  await run(`
    insert into agents (id, name, name_fold, api_key_hash, created_at, updated_at)
    select ${hexId('agent', 'i')}, 'list-agent-' || i, 'list agent ' || i, 'list-key-' || i, ${T0}, ${T0}
    from generate_series(1, ${claimers + 3}) i`);
  await run(`
    insert into projects (id, name, status, founder_id, token_symbol, token_address, created_at, activated_at, updated_at)
    select ${hexId('proj', 'p')}, 'List project ' || p, 'active', ${hexId('agent', '1 + p % 3')},
           'LP' || p, '0x' || lpad(to_hex(p), 40, '0'), ${T0}, ${T0}, ${T0}
    from generate_series(0, ${SEED_PROJECTS - 1}) p`);
  await run(`
    insert into token_states (token_address, curve_a, curve_b, supply_units, block_number, updated_at)
    select '0x' || lpad(to_hex(p), 40, '0'), 1000000 + p * 7919, 1000 + p * 13,
           (p + 1) * 123456789000000000000, p, ${T0}
    from generate_series(0, ${SEED_PROJECTS - 1}, 4) p`);
  await run(`
    insert into bounties (id, project_id, title, description, reward_amount, difficulty, status,
                          claimed_by, claimed_at, payable, payment_owed, revision_due_at, created_at, updated_at)
    select ${hexId('bnt', '(i * 7919) % 100003')}, ${hexId('proj', `i % ${SEED_PROJECTS}`)},
           (array['Fix','Port','Test','Tune'])[1 + i % 4] || ' the ' ||
             (array['parser','cache','queue','router','wallet'])[1 + (i / 3) % 5] ||
             case when i % 97 = 0 then ' near Zephyr' else '' end,
           'Item ' || i || case when i % 2 = 0 then ' is a common case.' else ' is rare.' end
             || case when i % 5 = 0 then ' Alpha and beta both.' when i % 5 = 1 then ' Only alpha.' else '' end
             || case when i % 11 = 0 then ' Runs on node-20 (api/v1).' else '' end,
           1 + (i * 37) % 5000,
           (array['easy','medium','hard','extreme'])[1 + (i * 3 + i / 7) % 4],
           s.status,
           case when s.status <> 'open' then ${hexId('agent', `4 + i / ${SEED_PROJECTS}`)} end,
           case when s.status in ('claimed', 'in_review') then s.at + interval '1 hour' end,
           i % 13 <> 0, s.status = 'in_review' and i % 3 = 0,
           case when s.status = 'claimed' and i % 4 = 0 then s.at + interval '2 days' end,
           s.at, s.at + interval '5 minutes'
    from (
      select i, ${T0} + (i / 2) * interval '61 seconds' + ((i / 2) % 7) * interval '1 millisecond' as at,
             (array['open','open','claimed','in_review','done'])[1 + (i * 7 + i / 20) % 5] as status
      from generate_series(0, ${SEED_BOUNTIES - 1}) i
    ) s`);
  await run('analyze agents, projects, bounties, bounty_counts, token_states');
}

/** The fixed set of queries whose answers must not change. */
export const LIST_QUERIES: string[] = [
  '',
  'limit=100',
  'limit=100&offset=100',
  'offset=2990',
  'offset=5000',
  'limit=7&offset=13',
  'status=open',
  'status=claimed&limit=50',
  'status=open&difficulty=hard',
  'difficulty=easy&limit=50&offset=50',
  `project_id=${projectId(3)}`,
  `project_id=${projectId(4)}&status=done&limit=100`,
  'project_id=proj_bad',
  'payable=false',
  'payable=true&status=open&limit=10',
  'q=zephyr',
  'q=ZEPHYR&limit=100',
  'q=zephyr&offset=20',
  'q=zephyr&status=open',
  `q=zephyr&project_id=${projectId(0)}`,
  'q=common',
  'q=common&limit=100&offset=900',
  'q=common&status=done&difficulty=medium',
  'q=common&offset=5000',
  'q=alpha%20beta',
  'q=alpha',
  'q=node-20',
  'q=api%2Fv1&limit=50',
  'q=rare%20parser',
  'q=nomatchword',
  'q=zephyr&payable=false',
];

/** Bounty `n` of `seedRelevanceRows`: an id no seeded bounty has. */
export const relevanceId = (n: number) => `bnt_${'f'.repeat(28)}${n.toString(16).padStart(4, '0')}`;

/**
 * For `sort=relevance` (on top of `seedBountyList`, for its project 0): `quasar` in two old titles
 * (three times in bounty 2, once in bounty 1) and once in the newest bounty's long description (3);
 * `common` (in 1500 seeded descriptions) in titles too: two newer than every seeded match (4, 5),
 * one older than every seeded match (6).
 */
export async function seedRelevanceRows(database: Database): Promise<void> {
  const rows: [number, string, string, string][] = [
    [1, 'Tune the quasar cache', 'Item q1 is rare.', '2024-06-01'],
    [2, 'Fix quasar', 'The quasar breaks; quasar again.', '2024-06-02'],
    [
      3,
      'Port the router',
      `A long text ${'about many other things '.repeat(20)}and quasar once.`,
      '2026-01-01',
    ],
    [4, 'Common cache', 'A common case.', '2025-01-02 10:00:00'],
    [5, 'Common queue', 'A common case.', '2025-01-02 12:00:00'],
    [6, 'Common router', 'A common case.', '2024-01-01'],
  ];
  for (const [n, title, description, at] of rows) {
    await database.db.execute(sql`
      insert into bounties (id, project_id, title, description, reward_amount, difficulty, status, created_at, updated_at)
      values (${relevanceId(n)}, ${projectId(0)}, ${title}, ${description}, 10, 'easy', 'open', ${at}::timestamptz, ${at}::timestamptz)`);
  }
}
