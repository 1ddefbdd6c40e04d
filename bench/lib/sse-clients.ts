/**
 * The SSE clients of bench/sse-fanout.ts, in a child process of their own so that the server's CPU
 * time is measured alone. Driven over IPC: `open` n streams, `report` the receive times of each
 * event (by the `seq` the bench put in its data), `close`.
 */
import { get, type IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';

type Command = { cmd: 'open'; url: string; n: number } | { cmd: 'report' } | { cmd: 'close' };

const now = () => performance.timeOrigin + performance.now();
const SEQ = /"seq":(\d+)/;
const received = new Map<number, number[]>();
const responses: IncomingMessage[] = [];
const send = (msg: unknown) => process.send?.(msg);

function openOne(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    // One socket per client, as separate agents would have.
    const req = get(url, { agent: false }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`status ${res.statusCode}`));
      responses.push(res);
      res.setEncoding('utf8');
      let buffer = '';
      let opened = false;
      res.on('data', (chunk: string) => {
        const t = now();
        buffer += chunk;
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
          if (!opened && block.startsWith('retry:')) {
            opened = true;
            resolve();
          }
          const seq = SEQ.exec(block)?.[1];
          if (seq === undefined) continue;
          const list = received.get(Number(seq));
          if (list) list.push(t);
          else received.set(Number(seq), [t]);
        }
      });
      res.on('error', () => {});
    });
    req.on('error', reject);
  });
}

process.on('message', async (msg: Command) => {
  if (msg.cmd === 'open') {
    // In waves: the server's listen backlog is finite.
    for (let i = 0; i < msg.n; i += 100) {
      const wave = Math.min(100, msg.n - i);
      await Promise.all(Array.from({ length: wave }, () => openOne(msg.url)));
    }
    send({ opened: responses.length });
  } else if (msg.cmd === 'report') {
    send({ received: Object.fromEntries(received) });
    received.clear();
  } else {
    for (const r of responses) r.destroy();
    process.exit(0);
  }
});
