// autocannon in a process of its own (bench/lib/load.ts `runAutocannon`), so that the CPU the
// bench process uses (process.cpuUsage) is the service's alone, without the load generator's.
import autocannon from 'autocannon';

const opts = JSON.parse(process.argv[2] ?? '{}');
autocannon(opts, (err, r) => {
  const pick = (h) => ({ p50: h.p50, p99: h.p99 });
  process.send?.(
    err
      ? { error: String(err.message ?? err) }
      : {
          result: {
            duration: r.duration,
            errors: r.errors,
            timeouts: r.timeouts,
            non2xx: r.non2xx,
            '2xx': r['2xx'],
            latency: pick(r.latency),
          },
        },
    () => process.exit(0),
  );
});
