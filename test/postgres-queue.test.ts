/**
 * postgres-js keeps its connections in queues (`src/queue.js`). When every connection is busy it
 * hands queries out round-robin: shift a connection off the busy queue, push it back. Unpatched,
 * `shift` leaves an empty slot behind and only resets the array once the queue is empty, which a
 * busy queue under steady load never is: the array grows by one slot per query, and `remove` (each
 * time a connection changes queues) scans every slot. A pool saturated for 40 s fell from 29,000 to
 * 5,500 queries a second on this machine. patches/postgres+3.4.9.patch compacts the array; these
 * tests hold the patched queue to a plain array's behaviour and to a bounded scan.
 */
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

interface Queue<T> {
  readonly length: number;
  push(x: T): T;
  shift(): T | undefined;
  remove(x: T): T | null;
}
type MakeQueue = <T>(initial?: T[]) => Queue<T>;

const esmUrl = new URL('./queue.js', import.meta.resolve('postgres'));
const esm = ((await import(esmUrl.href)) as { default: MakeQueue }).default;
const require = createRequire(import.meta.url);
const cjsPath = require.resolve('postgres').replace(/index\.js$/, 'queue.js');
const cjs = require(cjsPath) as MakeQueue;
const cf = (
  (await import(new URL('../cf/src/queue.js', esmUrl).href)) as {
    default: MakeQueue;
  }
).default;

/** The longest array `Array.prototype.indexOf` was called on while `run` ran. */
function longestScan(run: () => void): number {
  const indexOf = Array.prototype.indexOf;
  let longest = 0;
  Array.prototype.indexOf = function (this: unknown[], ...args: [unknown, number?]) {
    longest = Math.max(longest, this.length);
    return indexOf.apply(this, args);
  };
  try {
    run();
  } finally {
    Array.prototype.indexOf = indexOf;
  }
  return longest;
}

type Command = { op: 'push' } | { op: 'shift' } | { op: 'remove'; pick: number };
const command: fc.Arbitrary<Command> = fc.oneof(
  fc.constant({ op: 'push' as const }),
  fc.constant({ op: 'shift' as const }),
  fc.record({ op: fc.constant('remove' as const), pick: fc.nat(1000) }),
);

describe.each([
  ['src (ESM)', esm],
  ['cjs', cjs],
  ['cf', cf],
])('postgres-js Queue, %s copy', (_name, Queue) => {
  it('behaves as a plain FIFO array under any mix of push, shift and remove', () => {
    fc.assert(
      fc.property(fc.nat(5), fc.array(command, { maxLength: 600 }), (initial, ops) => {
        const made: { n: number }[] = [];
        const make = () => {
          const o = { n: made.length };
          made.push(o);
          return o;
        };
        const model = Array.from({ length: initial }, make);
        const q = Queue(model);
        for (const c of ops) {
          if (c.op === 'push') {
            const o = make();
            q.push(o);
            model.push(o);
          } else if (c.op === 'shift') {
            expect(q.shift()).toBe(model.shift());
          } else {
            // Any item made so far (held, shifted or removed), or one the queue never held.
            const o = made[c.pick % (made.length + 1)] ?? { n: -1 };
            const at = model.indexOf(o);
            expect(q.remove(o)).toBe(at === -1 ? null : o);
            if (at !== -1) model.splice(at, 1);
          }
          expect(q.length).toBe(model.length);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps its scan bounded when it never empties (round-robin over busy connections)', () => {
    const connections = Array.from({ length: 10 }, (_, id) => ({ id }));
    const q = Queue(connections);
    const longest = longestScan(() => {
      for (let i = 0; i < 100_000; i++) {
        // go(busy.shift(), query) then move(c, busy): remove (not found: shifted) and push.
        const c = q.shift() as { id: number };
        expect(q.remove(c)).toBeNull();
        q.push(c);
        // A connection finishing its queries leaves the busy queue (move to open) and comes back.
        if (i % 7 === 0) {
          const other = connections[i % 10] as { id: number };
          if (q.remove(other)) q.push(other);
        }
      }
    });
    expect(q.length).toBe(10);
    // Unpatched, the array reached one slot per shift: ~100,000.
    expect(longest).toBeLessThanOrEqual(2 * 64 + 10);
  });
});
