import type { ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { EventStream, type Frame } from '../src/modules/events/event-stream.ts';

/** A response whose client never reads: everything written stays buffered. */
function stalledResponse() {
  const res = new Writable({ write() {} }) as Writable & { end: () => void };
  return res;
}

/** A response whose client reads everything: each write kept, in order. */
function recordingResponse() {
  const chunks: string[] = [];
  const res = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { res, chunks };
}

const frame = (n: number, extra: Partial<Frame> = {}): Frame => ({
  pos: { txid: '100', id: `evt_${String(n).padStart(32, '0')}` },
  type: 'bounty.created',
  projectId: null,
  recipients: null,
  text: `id: ${n}\nevent: bounty.created\ndata: {"n":${n},"pad":"${'x'.repeat(200)}"}\n\n`,
  ...extra,
});

describe('EventStream', () => {
  it('drops a live client whose unread buffer grows past the bound, and only then', () => {
    const res = stalledResponse();
    let dropped = 0;
    const s = new EventStream(
      res as unknown as ServerResponse,
      { agentId: null, types: null, projectId: null },
      { txid: '0', id: '' },
      4_096,
      () => dropped++,
    );
    s.live = true;
    let n = 0;
    while (res.writableLength + 300 < 4_096) s.deliver([frame(++n)]);
    expect(dropped).toBe(0);
    expect(res.destroyed).toBe(false);
    s.deliver([frame(++n), frame(++n)]);
    expect(dropped).toBe(1);
    expect(res.destroyed).toBe(true);
    expect(s.closed).toBe(true);
    // Nothing more is written to a dropped stream.
    s.deliver([frame(++n)]);
    s.heartbeat();
    expect(dropped).toBe(1);
  });

  it('writes nothing before it is live: a heartbeat would send an implicit head before the real one', () => {
    const { res, chunks } = recordingResponse();
    const s = new EventStream(
      res as unknown as ServerResponse,
      { agentId: null, types: null, projectId: null },
      { txid: '0', id: '' },
      1 << 20,
      () => {},
    );
    // The bus's shared heartbeat timer fires while the service is still writing the head.
    s.heartbeat();
    s.deliver([frame(1)]);
    expect(chunks).toEqual([]);
    s.live = true;
    s.heartbeat();
    expect(chunks).toEqual([': keep-alive\n\n']);
  });

  it('skips frames at or before its cursor and those its filter excludes', () => {
    const { res, chunks } = recordingResponse();
    const s = new EventStream(
      res as unknown as ServerResponse,
      { agentId: 'agent_a', types: null, projectId: 'proj_1' },
      frame(2).pos,
      1 << 20,
      () => {},
    );
    s.live = true;
    s.deliver([
      frame(1, { projectId: 'proj_1' }),
      frame(2, { projectId: 'proj_1' }),
      frame(3, { projectId: 'proj_1' }),
      frame(4, { projectId: 'proj_2' }),
      frame(5, { projectId: 'proj_1', recipients: ['agent_b'] }),
      frame(6, { projectId: 'proj_1', recipients: ['agent_a'] }),
    ]);
    expect(chunks.join('').match(/^id: \d+$/gm)).toEqual(['id: 3', 'id: 6']);
    expect(s.cursor).toEqual(frame(6).pos);
  });

  it('never sends an event committed before it opened, live or in its catch-up replay', async () => {
    const { res, chunks } = recordingResponse();
    const s = new EventStream(
      res as unknown as ServerResponse,
      { agentId: null, types: null, projectId: null },
      frame(0).pos,
      1 << 20,
      () => {},
    );
    // Committed before the stream opened, not yet final: the bus becomes final on 1 and 3 while
    // the stream opens (its catch-up replays them), and on 5 once it is live.
    s.skipCommitted([frame(1).pos.id, frame(3).pos.id, frame(5).pos.id]);
    await s.replay([frame(1), frame(2), frame(3)]);
    s.live = true;
    s.deliver([frame(4), frame(5), frame(6)]);
    expect(chunks.join('').match(/^id: \d+$/gm)).toEqual(['id: 2', 'id: 4', 'id: 6']);
  });
});

describe('comparePositions', () => {
  it('orders by transaction id as a number, then by event id', async () => {
    const { comparePositions } = await import('../src/modules/events/stream-position.ts');
    const at = (txid: string, id = 'evt_1') => ({ txid, id });
    expect(comparePositions(at('9'), at('10'))).toBe(-1);
    expect(comparePositions(at('10'), at('9'))).toBe(1);
    expect(comparePositions(at('18446744073709551615'), at('18446744073709551614'))).toBe(1);
    expect(comparePositions(at('0', ''), at('0', 'evt_0'))).toBe(-1);
    expect(comparePositions(at('5', 'evt_b'), at('5', 'evt_a'))).toBe(1);
    expect(comparePositions(at('5', 'evt_a'), at('5', 'evt_a'))).toBe(0);
  });
});
