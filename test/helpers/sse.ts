import { get, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';

/** One Server-Sent Events message as a client sees it. */
export interface SseMessage {
  id: string;
  event: string;
  data: Record<string, unknown> & { id: string; type: string };
}

/**
 * A minimal SSE client over fetch: it parses messages and comment lines as they arrive and lets a
 * test wait for them. `ended` resolves when the server ends the stream (or the client closes it).
 */
export class SseClient {
  readonly messages: SseMessage[] = [];
  comments = 0;
  retry: number | null = null;
  endedByServer = false;
  readonly ended: Promise<void>;
  private waiters: (() => void)[] = [];

  private constructor(
    readonly status: number,
    readonly headers: IncomingHttpHeaders,
    private readonly res: IncomingMessage,
  ) {
    this.ended = this.read();
  }

  /**
   * Opens `path` on `baseUrl` on a connection of its own (node:http, no pool: fetch's pool opens
   * a spare connection after an abort, which a closing server then waits on); throws unless the
   * answer is a 200 event stream.
   */
  static open(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<SseClient> {
    return new Promise((resolve, reject) => {
      const req = get(`${baseUrl}${path}`, { headers, agent: false }, (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          reject(new Error(`GET ${path}: ${res.statusCode}`));
          return;
        }
        resolve(new SseClient(res.statusCode, res.headers, res));
      });
      req.on('error', reject);
    });
  }

  /** The ids received, in order. */
  get ids(): string[] {
    return this.messages.map((m) => m.id);
  }

  /**
   * Waits until `done()` holds, checking after every message and comment. The default allows for
   * a parallel run: on PostgreSQL an event is delivered once no transaction anywhere in the
   * cluster can precede it, and other files' tests hold transactions open for seconds on purpose.
   */
  async until(done: (c: SseClient) => boolean, timeoutMs = 20_000, what = 'condition'): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done(this)) {
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`SSE: timed out waiting for ${what}; got ${JSON.stringify(this.types())}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** Waits for the message with this event id. */
  async waitForId(id: string, timeoutMs = 20_000): Promise<SseMessage> {
    await this.until((c) => c.ids.includes(id), timeoutMs, `event ${id}`);
    return this.messages.find((m) => m.id === id) as SseMessage;
  }

  types(): string[] {
    return this.messages.map((m) => m.event);
  }

  close(): void {
    this.res.destroy();
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  private async read(): Promise<void> {
    let buffer = '';
    this.res.setEncoding('utf8');
    try {
      for await (const chunk of this.res as AsyncIterable<string>) {
        buffer += chunk;
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          this.parse(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
        }
        this.notify();
      }
      this.endedByServer = true;
    } catch {
      // Closed by close(), or the connection was cut.
    }
    this.notify();
  }

  private parse(block: string): void {
    const fields: Record<string, string> = {};
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) {
        this.comments++;
        continue;
      }
      const colon = line.indexOf(':');
      const name = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      fields[name] = fields[name] === undefined ? value : `${fields[name]}\n${value}`;
    }
    if (fields.retry !== undefined) this.retry = Number(fields.retry);
    if (fields.data === undefined) return;
    this.messages.push({
      id: fields.id ?? '',
      event: fields.event ?? 'message',
      data: JSON.parse(fields.data),
    });
  }
}
