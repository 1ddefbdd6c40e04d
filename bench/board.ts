/**
 * The board page (`GET /`, server-rendered HTML) next to `GET /api/bounties` for the same filters
 * and the same rows, in one run on real PostgreSQL. The page does what the API does (the same
 * service call) plus each listed project's review record and the template; for visitors who are
 * not signed in (these runs) it is rendered once per URL while the activity feed's newest event
 * stays the same (at most 5 s, src/web/public/public-pages.ts), so a run mostly measures that probe
 * and the cached answer. The board default is measured once more signed in (a web session): the
 * same cached content with the visitor's own header rendered around it.
 *
 * Each pair is measured `--rounds` times, API and page in turn, and the medians are printed: on a
 * shared 2-core machine one run of either can be off by half. Next to the rates, the service's CPU
 * per request (this process; the load generator runs in its own).
 *
 *   npx tsx bench/board.ts [--rows 100000] [--duration 10] [--connections 20] [--pool 5]
 *                          [--warmup 2] [--rounds 1] [--db bm_bench_board] [--keep]
 */
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { buildApp } from '../src/app.ts';
import { type Chain, tokensToUnits } from '../src/infra/chain/chain.ts';
import { unavailableChain } from '../src/infra/chain/unavailable-chain.ts';
import { DEFAULT_POOL_SIZE, loadConfig } from '../src/infra/config.ts';
import { type Database, openDatabase } from '../src/infra/db/client.ts';
import { systemClock } from '../src/lib/clock.ts';
import { cpuMeter, type Measurement, machineBusy, middle, runAutocannon } from './lib/load.ts';
import { databaseUrl, dropDatabase, KEYWORD, PROJECTS, recreateDatabase, seed } from './lib/seed.ts';

const { values: opts } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '20' },
    pool: { type: 'string', default: String(DEFAULT_POOL_SIZE) }, // the service's own default
    warmup: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '1' },
    db: { type: 'string', default: 'bm_bench_board' },
    keep: { type: 'boolean', default: false },
  },
});

const int = (name: string, raw: string, min: number) => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be a whole number >= ${min}`);
  return n;
};
const rows = int('rows', opts.rows, 1);
const duration = int('duration', opts.duration, 1);
const connections = int('connections', opts.connections, 1);
const pool = int('pool', opts.pool, 1);
const warmup = int('warmup', opts.warmup, 0);
const rounds = int('rounds', opts.rounds, 1);
if (!/^[a-z_][a-z0-9_]*$/.test(opts.db)) throw new Error('--db must be a plain lower-case identifier');
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const url = databaseUrl(adminUrl, opts.db);

// The board's default is open bounties; the API's is every status, so each pair names it.
const scenarios = [
  { name: 'open (board default)', page: '/', api: '/api/bounties?status=open' },
  { name: 'open+hard', page: '/?difficulty=hard', api: '/api/bounties?status=open&difficulty=hard' },
  { name: `q=${KEYWORD}, any status`, page: `/?q=${KEYWORD}&status=any`, api: `/api/bounties?q=${KEYWORD}` },
];

/**
 * A chain whose curve read takes as long as a nearby RPC node (5 ms): the page's cache, not the
 * node, should decide its speed. Nothing else is called.
 */
const curveChain: Chain = {
  ...unavailableChain,
  readCurve: async () => {
    await new Promise((r) => setTimeout(r, 5));
    return { a: 10n ** 12n, b: 1000n, supplyUnits: tokensToUnits(1_000_000) };
  },
};

const log = (msg: string) => console.log(msg);
/** Issue 29: the signed-in board at this share of the API's rate, or more. */
const SIGNED_IN_TARGET = 0.5;

/**
 * A run with the service's CPU per request and how busy its event loop was (%): a run whose loop
 * stays well under 90 % busy was paced by the load generator, not by the service.
 */
type Run = Measurement & { us: number; loop: number };

/** One measured run after its warm-up, with the service's CPU per request. */
async function measure(url: string, headers: Record<string, string>): Promise<Run> {
  if (warmup > 0) await runAutocannon(url, connections, warmup, headers);
  const cpu = cpuMeter();
  const m = await runAutocannon(url, connections, duration, headers);
  const use = cpu(m.completed);
  return { ...m, us: use.usPerRequest, loop: use.eventLoopBusy };
}

/** The run with the median rate (the lower middle one of an even count). */
const median = (runs: Run[]): Run => middle(runs, (r) => r.rps);

/** A web session for a new agent, signed in through the form as a browser would: its cookie. */
async function signIn(base: string): Promise<string> {
  const reg = await fetch(`${base}/api/agents/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: `bench-visitor-${process.pid}` }),
  });
  const { agent } = (await reg.json()) as { agent: { api_key: string } };
  const res = await fetch(`${base}/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
    body: new URLSearchParams({ api_key: agent.api_key }),
  });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('bm_session='));
  if (res.status !== 303 || !cookie) throw new Error(`sign-in: ${res.status} ${await res.text()}`);
  return cookie.split(';')[0] as string;
}

async function main() {
  log(
    `board bench: ${rows.toLocaleString('en')} bounties over ${PROJECTS} projects, ${duration}s per run ` +
      `(+${warmup}s warm-up), ${connections} connections, DB pool ${pool}`,
  );
  log(
    `machine: ${availableParallelism()} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const sql = postgres(url, { max: 2, onnotice: () => {} });
  let database: Database | undefined;
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  try {
    await recreateDatabase(adminUrl, opts.db);
    database = await openDatabase({ kind: 'postgres', url, poolSize: pool });
    await seed(sql, rows, () => {});
    // The seed leaves curves out; the page reads one per listed project.
    await sql.unsafe(`update projects set curve_address = token_address`);
    const config = loadConfig({
      DATABASE_URL: url,
      DATABASE_POOL_SIZE: String(pool),
      RATE_LIMIT_PER_IP_PER_MINUTE: '1000000000',
      LOG_LEVEL: 'silent',
    });
    app = await buildApp({ database, chain: curveChain, clock: systemClock, config });
    const base = await app.listen({ host: '127.0.0.1', port: 0 });

    const idle = machineBusy();
    await new Promise((r) => setTimeout(r, 1000));
    log(`machine ${idle().toFixed(0)}% busy before measuring`);

    const results: { name: string; page: Run; api: Run; rows: number }[] = [];
    const session = await signIn(base);
    const signedIn = [{ ...(scenarios[0] as (typeof scenarios)[number]), name: 'open, signed in', session }];
    for (const s of [...scenarios.map((x) => ({ ...x, session: '' })), ...signedIn]) {
      const cookie: Record<string, string> = s.session ? { cookie: s.session } : {};
      const apiBody = (await (await fetch(base + s.api)).json()) as { bounties: { id: string }[] };
      const html = await (await fetch(base + s.page, { headers: cookie })).text();
      if (s.session && !html.includes('Signed in as'))
        throw new Error(`${s.name}: the page is not signed in`);
      // Same rows: every bounty the API lists is on the page, and the page lists no other.
      const onPage = [...html.matchAll(/data-bounty-id="([^"]+)"/g)].map((m) => m[1]);
      const same = apiBody.bounties.map((b) => b.id).join() === onPage.join();
      if (!same) throw new Error(`${s.name}: the page and the API list different bounties`);
      const apiRuns: Run[] = [];
      const pageRuns: Run[] = [];
      for (let round = 0; round < rounds; round++) {
        apiRuns.push(await measure(base + s.api, {}));
        pageRuns.push(await measure(base + s.page, cookie));
      }
      // A failure in any round is reported, not only in the median one.
      const api = { ...median(apiRuns), failed: apiRuns.reduce((n, r) => n + r.failed, 0) };
      const page = { ...median(pageRuns), failed: pageRuns.reduce((n, r) => n + r.failed, 0) };
      log(
        `== ${s.name}: ${onPage.length} rows; API ${api.rps.toFixed(0)} req/s p99 ${api.p99} ms ` +
          `${api.us.toFixed(0)} µs CPU, event loop ${api.loop.toFixed(0)}% busy; page ${page.rps.toFixed(0)} req/s ` +
          `p99 ${page.p99} ms ${page.us.toFixed(0)} µs CPU, event loop ${page.loop.toFixed(0)}% busy (median of ${rounds})`,
      );
      results.push({ name: s.name, page, api, rows: onPage.length });
    }
    log('');
    const header = [
      'scenario',
      'rows',
      'API req/s',
      'API p99 ms',
      'API µs CPU',
      'page req/s',
      'page p99 ms',
      'page µs CPU',
      'page/API',
    ];
    const body = results.map((r) => [
      r.name,
      String(r.rows),
      r.api.rps.toFixed(0),
      r.api.p99.toFixed(1),
      r.api.us.toFixed(0),
      r.page.rps.toFixed(0),
      r.page.p99.toFixed(1),
      r.page.us.toFixed(0),
      (r.api.rps > 0 ? r.page.rps / r.api.rps : 0).toFixed(2),
    ]);
    const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] ?? '').length)));
    const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
    log(line(header));
    log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
    for (const b of body) log(line(b));
    const signedRow = results.find((r) => r.name === 'open, signed in');
    if (signedRow) {
      const ratio = signedRow.page.rps / Math.max(1, signedRow.api.rps);
      log(
        `\nIssue 29: a signed-in page at >= ${SIGNED_IN_TARGET} of the API: ${ratio.toFixed(2)} ` +
          (ratio >= SIGNED_IN_TARGET ? 'PASS' : 'MISS'),
      );
    }
    for (const r of results.filter((x) => x.page.failed > 0 || x.api.failed > 0))
      log(`WARNING ${r.name}: ${r.page.failed} failed page requests, ${r.api.failed} failed API requests`);
  } finally {
    await app?.close();
    await database?.close();
    await sql.end({ timeout: 5 });
    if (opts.keep) log(`kept database ${opts.db} (--keep)`);
    else await dropDatabase(adminUrl, opts.db);
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
