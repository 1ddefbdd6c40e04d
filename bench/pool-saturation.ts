/**
 * postgres-js under steady saturation: more callers than connections, for a while, as a busy
 * service keeps its pool. Prints queries per second and client CPU per query for each window, and
 * the last window's rate against the first (the baseline of the same run): flat is the goal. Before
 * patches/postgres+3.4.9.patch the pool's busy queue grew by one slot per query and the rate fell
 * to a fifth in 40 s (bench/README.md, "A pool that slows down under load").
 *
 *   npx tsx bench/pool-saturation.ts [--seconds 40] [--window 4] [--callers 50] [--pool 10]
 */
import { parseArgs } from 'node:util';
import postgres from 'postgres';

const { values: opts } = parseArgs({
  options: {
    seconds: { type: 'string', default: '40' },
    window: { type: 'string', default: '4' },
    callers: { type: 'string', default: '50' },
    pool: { type: 'string', default: '10' },
  },
});
const int = (name: string, raw: string) => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a whole number >= 1 (got "${raw}")`);
  return n;
};
const seconds = int('seconds', opts.seconds);
const window = int('window', opts.window);
const callers = int('callers', opts.callers);
const pool = int('pool', opts.pool);
const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const sql = postgres(url, { max: pool, onnotice: () => {} });
let done = 0;
let stop = false;
async function caller() {
  while (!stop) {
    await sql`select 1`;
    done++;
  }
}

console.log(`pool-saturation: ${callers} callers on ${pool} connections, ${seconds}s in ${window}s windows`);
const running = Array.from({ length: callers }, caller);
const rates: number[] = [];
let counted = 0;
let cpu = process.cpuUsage();
for (let t = window; t <= seconds; t += window) {
  await new Promise((r) => setTimeout(r, window * 1000));
  const n = done - counted;
  const used = process.cpuUsage(cpu);
  counted = done;
  cpu = process.cpuUsage();
  rates.push(n / window);
  console.log(
    `  t=${String(t).padStart(3)}s  ${(n / window).toFixed(0).padStart(7)} queries/s  ` +
      `${((used.user + used.system) / n).toFixed(1)} µs CPU/query`,
  );
}
stop = true;
await Promise.all(running);
await sql.end({ timeout: 5 });
const first = rates[0] ?? Number.NaN;
const last = rates.at(-1) ?? Number.NaN;
const ratio = last / first;
console.log(
  `last window / first: ${ratio.toFixed(2)} (goal >= 0.8: ${ratio >= 0.8 ? 'PASS' : 'MISS'}, ` +
    'a pool that keeps its pace)',
);
process.exit(0);
