import { BountyApiError } from './errors.ts';
import { backoffMs, sleep } from './retry.ts';
import type { paths } from './schema.ts';

/** One event of the feed, as `GET /api/activity` lists it (the stream sends the same JSON). */
export type ActivityEvent =
  paths['/api/activity']['get']['responses'][200]['content']['application/json']['activity'][number];

/** A message of a `text/event-stream`, per the WHATWG HTML "server-sent events" parsing rules. */
export interface ServerSentEvent {
  id: string | undefined;
  event: string;
  data: string;
  retry: number | undefined;
}

/**
 * Parses a `text/event-stream` body into messages. Comment lines (keep-alives) and messages
 * without data are skipped, as an EventSource would. The body is cancelled when the caller
 * stops early.
 */
export async function* parseEventStream(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  // A TextDecoder over the reader, not `pipeThrough(new TextDecoderStream())`: the DOM lib types
  // that stream's input as `BufferSource`, which a `Uint8Array<ArrayBufferLike>` is not, so a
  // consumer compiling with `lib: ["dom"]` (and no @types/node) would fail. `stream: true` keeps
  // a character split across chunks whole.
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  let event = '';
  let id: string | undefined;
  let retry: number | undefined;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      // At the end a trailing \r is a whole line end; a message not ended by a blank line is
      // incomplete and dropped, as the spec says.
      if (done && !buffer.endsWith('\r')) return;
      if (done) buffer += '\n';
      for (;;) {
        const match = /\r\n|\r|\n/.exec(buffer);
        // A lone \r at the end may be the first half of \r\n: wait for more.
        if (!match || (match[0] === '\r' && match.index === buffer.length - 1)) break;
        const line = buffer.slice(0, match.index);
        buffer = buffer.slice(match.index + match[0].length);
        if (line === '') {
          if (data.length > 0) yield { id, event: event || 'message', data: data.join('\n'), retry };
          data = [];
          event = '';
          retry = undefined;
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        let val = colon === -1 ? '' : line.slice(colon + 1);
        if (val.startsWith(' ')) val = val.slice(1);
        if (field === 'data') data.push(val);
        else if (field === 'event') event = val;
        else if (field === 'id' && !val.includes('\0')) id = val;
        else if (field === 'retry' && /^\d+$/.test(val)) retry = Number(val);
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

export interface FollowEventsOptions {
  /** Only these types (the service filters). */
  types?: string[];
  projectId?: string;
  /** Resume after this event: everything after it is replayed first. */
  lastEventId?: string;
  /** Stops following; the iterator then ends without an error. */
  signal?: AbortSignal;
  /** Consecutive failed connections before giving up; unbounded by default. */
  maxReconnects?: number;
  /**
   * Called each time the stream is open (first connection and every reconnection). Every event
   * committed after that moment is delivered, so "subscribe, then act" is: start iterating, wait
   * for `onOpen`, then act.
   */
  onOpen?: () => void;
}

interface StreamDeps {
  baseUrl: string;
  apiKey?: string | undefined;
  fetch: (input: Request) => Promise<Response>;
  baseDelayMs: number;
  maxDelayMs: number;
}

const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);

/**
 * Follows `GET /api/events`. A dropped stream (network error, server restart, proxy timeout) is
 * reopened with backoff and `Last-Event-ID`, so no event is missed or repeated; errors that
 * another try cannot fix (400, 401) are thrown as `BountyApiError`.
 */
export async function* followEvents(
  deps: StreamDeps,
  opts: FollowEventsOptions = {},
): AsyncGenerator<ActivityEvent, void, undefined> {
  const url = new URL(`${deps.baseUrl}/api/events`);
  if (opts.types?.length) url.searchParams.set('types', opts.types.join(','));
  if (opts.projectId) url.searchParams.set('project_id', opts.projectId);
  let lastEventId = opts.lastEventId;
  let failures = 0;
  let serverDelay: number | undefined;
  const stopped = () => opts.signal?.aborted === true;

  while (!stopped()) {
    // Our own controller too: leaving the loop early must close the connection.
    const local = new AbortController();
    const signal = opts.signal ? AbortSignal.any([opts.signal, local.signal]) : local.signal;
    const headers = new Headers({ accept: 'text/event-stream' });
    if (deps.apiKey) headers.set('authorization', `Bearer ${deps.apiKey}`);
    if (lastEventId) headers.set('last-event-id', lastEventId);
    let failure: unknown = null;
    let retryAfter: number | null = null;
    try {
      const response = await deps.fetch(new Request(url, { headers, signal }));
      if (!response.ok || !response.body) {
        const err = await BountyApiError.fromResponse(response);
        if (!RETRYABLE_STATUS.has(response.status)) throw err;
        failure = err;
        retryAfter = err.retryAfterSeconds;
      } else {
        opts.onOpen?.();
        for await (const message of parseEventStream(response.body)) {
          if (message.retry !== undefined) serverDelay = message.retry;
          if (message.id) lastEventId = message.id;
          failures = 0;
          yield JSON.parse(message.data) as ActivityEvent;
        }
        failure = new Error('The event stream ended.');
      }
    } catch (err) {
      if (stopped()) return;
      if (err instanceof BountyApiError) throw err;
      failure = err;
    } finally {
      local.abort();
    }
    failures++;
    if (opts.maxReconnects !== undefined && failures > opts.maxReconnects) throw failure;
    const wait =
      retryAfter !== null
        ? retryAfter * 1000
        : Math.max(serverDelay ?? 0, failures === 1 ? 0 : backoffMs(failures - 2, deps));
    try {
      await sleep(Math.min(wait, deps.maxDelayMs), opts.signal);
    } catch {
      return;
    }
  }
}
