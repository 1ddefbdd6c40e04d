import postgres from 'postgres';
import { CURVE_A, CURVE_B } from '../../src/infra/chain/dev-chain.ts';

/** The word the keyword scenario searches for; about 1% of bounties mention it, no other word is it. */
export const KEYWORD = 'zephyr';
export const PROJECTS = 1000;
const FOUNDERS = 5;
const BATCH = 100_000;
const SPAN_SECONDS = 2 * 365 * 86_400;

const VERBS = ['fix', 'refactor', 'document', 'optimize', 'test', 'port', 'harden', 'simplify'];
const ADJECTIVES = ['flaky', 'slow', 'legacy', 'broken', 'missing', 'noisy', 'unsafe', 'verbose'];
const NOUNS = [
  'parser',
  'scheduler',
  'cache',
  'exporter',
  'wallet',
  'indexer',
  'router',
  'logger',
  'migrator',
  'renderer',
  'uploader',
  'resolver',
  'encoder',
  'watcher',
  'bridge',
  'queue',
];

const lit = (words: string[]) => `array[${words.map((w) => `'${w}'`).join(',')}]::text[]`;
const pick = (words: string[]) => `(${lit(words)})[1 + floor(random() * ${words.length})::int]`;
const hexId = (prefix: string, n: string) => `'${prefix}_' || lpad(to_hex(${n}), 32, '0')`;

export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin(adminUrl: string, run: (sql: postgres.Sql) => Promise<unknown>): Promise<void> {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await run(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

export async function recreateDatabase(adminUrl: string, name: string): Promise<void> {
  await withAdmin(adminUrl, async (sql) => {
    await sql.unsafe(`drop database if exists "${name}" with (force)`);
    await sql.unsafe(`create database "${name}"`);
  });
}

/** Bounties in an existing bench database, or -1 when it does not exist, is not migrated or has no curves. */
export async function existingRows(url: string): Promise<number> {
  const sql = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    // A database seeded before the curves were (2026-11-30) is seeded again.
    const [row] = await sql.unsafe(
      'select count(*)::int as n, (select count(*)::int from token_states) as curves from bounties',
    );
    return row?.curves === PROJECTS ? Number(row.n) : -1;
  } catch {
    return -1;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await withAdmin(adminUrl, (sql) => sql.unsafe(`drop database if exists "${name}" with (force)`));
}

/**
 * Inserts `rows` bounties spread over PROJECTS projects founded by FOUNDERS agents, in batches of
 * INSERT ... SELECT generate_series so the bounty_counts trigger runs once per batch. Bounty i
 * belongs to project i % PROJECTS and, unless open, is claimed by claimer agent i / PROJECTS, so the
 * one-active-claim-per-agent-per-project index always holds. created_at spans the last two years.
 */
export async function seed(sql: postgres.Sql, rows: number, log: (msg: string) => void) {
  const claimers = Math.max(1, Math.ceil(rows / PROJECTS));
  const t0 = Date.now() / 1000 - SPAN_SECONDS;
  const step = SPAN_SECONDS / Math.max(rows, 1);
  await sql.unsafe(`
    insert into agents (id, name, name_fold, api_key_hash, created_at, updated_at)
    select ${hexId('agent', 'i')}, 'bench-agent-' || i, 'bench agent ' || i, 'bench-key-' || i,
           to_timestamp(${t0}), to_timestamp(${t0})
    from generate_series(1, ${FOUNDERS + claimers}) i`);
  await sql.unsafe(`
    insert into projects (id, name, status, founder_id, token_symbol, token_address, created_at, activated_at, updated_at)
    select ${hexId('proj', 'p')}, 'Bench project ' || p, 'active', ${hexId('agent', `1 + p % ${FOUNDERS}`)},
           'BM' || p, '0x' || lpad(to_hex(p), 40, '0'), to_timestamp(${t0}), to_timestamp(${t0}), to_timestamp(${t0})
    from generate_series(0, ${PROJECTS - 1}) p`);
  // Every active project's token as the holdings module keeps it: the dev factory's curve and a
  // supply between 10,000 and about 1,000,000 whole tokens, so each listed bounty's
  // reward_eth_units is a quote on a curve, as in production (none at all before 2026-11-30).
  await sql.unsafe(`
    insert into token_states (token_address, curve_a, curve_b, supply_units, block_number, updated_at)
    select '0x' || lpad(to_hex(p), 40, '0'), ${CURVE_A}, ${CURVE_B},
           (10000 + (p * 7919) % 990000)::numeric * 1000000000000000000 + p, 1000 + p, to_timestamp(${t0})
    from generate_series(0, ${PROJECTS - 1}) p`);

  const noun = pick(NOUNS);
  for (let lo = 0; lo < rows; lo += BATCH) {
    const hi = Math.min(lo + BATCH, rows) - 1;
    await sql.unsafe(`
      insert into bounties (id, project_id, title, description, reward_amount, difficulty, status,
                            claimed_by, claimed_at, created_at, updated_at)
      select ${hexId('bnt', 'i + 1')}, ${hexId('proj', `i % ${PROJECTS}`)},
             initcap(${pick(VERBS)}) || ' the ' || ${pick(ADJECTIVES)} || ' ' || ${noun},
             'The ' || ${noun} || ' is ' || ${pick(ADJECTIVES)} || '; please ' || ${pick(VERBS)} || ' it and '
               || ${pick(VERBS)} || ' the ' || ${pick(ADJECTIVES)} || ' ' || ${noun} || ' next to it.'
               || case when r.kw < 0.01 then ' It also touches the ${KEYWORD} ' || ${noun} || '.' else '' end,
             1 + floor(random() * 10000)::int,
             ${pick(['easy', 'medium', 'hard', 'extreme'])},
             r.status,
             case when r.status <> 'open' then ${hexId('agent', `${FOUNDERS + 1} + i / ${PROJECTS}`)} end,
             case when r.status in ('claimed', 'in_review') then r.at + interval '1 hour' end,
             r.at, r.at
      from (
        select i, to_timestamp(${t0} + (i + random()) * ${step}) as at, random() as kw,
               (array['open','open','open','open','open','open','open','claimed','claimed','in_review',
                      'done','done','done','done','done','done','done','done','done','done'])[1 + floor(random() * 20)::int] as status
        from generate_series(${lo}, ${hi}) i
        offset 0
      ) r`);
    log(`  seeded ${hi + 1} / ${rows} bounties`);
  }
  await verifyCounts(sql, rows);
  log('  VACUUM ANALYZE ...');
  await sql.unsafe('vacuum analyze agents, projects, bounties, bounty_counts, bounty_words, token_states');
  const [hits] = await sql.unsafe(
    `select count(*)::int as n, (select n from bounty_words where word = '${KEYWORD}')::int as tallied
     from bounties where search @@ plainto_tsquery('simple', '${KEYWORD}')`,
  );
  // The keyword's total comes from bounty_words (its trigger ran once per batch): it must be exact.
  if (hits?.n !== hits?.tallied) throw new Error(`bounty_words disagrees: ${JSON.stringify(hits)}`);
  return { keywordRows: Number(hits?.n ?? 0), claimers };
}

/** The trigger-maintained bounty_counts must agree with the bounties table, per status and difficulty. */
async function verifyCounts(sql: postgres.Sql, rows: number): Promise<void> {
  const [check] = await sql.unsafe(`
    select (select count(*) from bounties)::bigint as actual,
           (select coalesce(sum(n), 0) from bounty_counts where scope = '*')::bigint as star,
           (select coalesce(sum(n), 0) from bounty_counts where scope <> '*')::bigint as per_project,
           (select count(*) from (
              select status, difficulty, count(*) as n, sum(reward_amount) as r from bounties group by 1, 2
              except
              select status, difficulty, n, reward_sum from bounty_counts where scope = '*') d)::int as mismatched`);
  const actual = Number(check?.actual);
  const ok =
    actual === rows &&
    Number(check?.star) === rows &&
    Number(check?.per_project) === rows &&
    check?.mismatched === 0;
  if (!ok)
    throw new Error(`bounty_counts disagrees with bounties: ${JSON.stringify(check)} (expected ${rows})`);
}
