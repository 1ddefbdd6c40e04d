import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import type { Executor } from '../db/client.ts';
import * as repo from './idempotency.repo.ts';

/**
 * `Idempotency-Key` on every POST (contract, "Safe retries"): the first answer to a request is
 * kept in the database for 24 h and replayed to a retry, on any instance.
 *
 * - A `preHandler` on every POST route: it runs after the route's `onRequest` authentication (an
 *   unauthenticated call is 401 and never recorded), after the body guards and validation (a 400
 *   there is the same for every retry, so nothing needs keeping), and before the handler, so a
 *   replay or a refusal does nothing twice.
 * - `onSend` sees the serialized answer, the error handler's included, and stores it.
 */

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const KEY_SHAPE = /^[\x21-\x7E]{1,255}$/;
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * GitHub's merge webhook is not the agents' API: it has no agent to scope by, GitHub never sends
 * the header, and deliveries are deduplicated by `X-GitHub-Delivery` (webhook_deliveries) already.
 */
export const EXCLUDED_ROUTES = new Set(['/api/webhooks/github']);

/**
 * Answers about the moment rather than the request are not kept: a retry must get a fresh one.
 * (401 can only come from a handler here: route authentication runs before this hook.)
 */
const MOMENTARY_STATUSES = new Set([401, 429]);
/**
 * A 202 names a transaction still on its way: its record stays, lapsed, so a retry of the same
 * request runs the handler again (which finds the request's transaction by this key and answers
 * with where it is now) and another request under the key is still refused.
 */
const IN_FLIGHT_STATUS = 202;
const MOMENTARY_CODES = new Set(['idempotency_in_progress', 'operation_in_progress', 'rate_limited']);

export interface IdempotencyOptions {
  db: Executor;
  clock: Clock;
  /**
   * How long an `in_progress` record blocks retries before it counts as abandoned (its process
   * died). Longer than the slowest handler (approve, bounded by the approval lease), or a retry
   * could run beside a first attempt that is still working. Counted by the database's clock, so
   * instances whose clocks disagree agree on when a lock lapses.
   */
  lockSeconds: number;
  /** When set, expired records are purged this often (background jobs); otherwise only lazily. */
  purgeEverySeconds?: number;
}

/** The record a request holds while it runs. */
interface Held {
  scope: string;
  key: string;
  lockedUntil: Date;
  secret: Buffer;
  /**
   * The same request ran before and died without an answer (its lock lapsed): a handler whose
   * work may have finished meanwhile (an approval the reconciler completed) answers with it.
   */
  retryOfLost: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: Held | null;
  }
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** Parsed JSON with object keys sorted: key order and whitespace do not make another request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj)
      .filter((k) => obj[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(obj[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function requestHash(body: unknown): string {
  if (body === undefined) return sha256('');
  if (Buffer.isBuffer(body)) return sha256(body);
  return sha256(canonical(body));
}

/**
 * Answers can hold secrets (registration and rotate-key return an API key, of which only a hash is
 * stored anywhere else), so they are sealed with a key derived from the client's Idempotency-Key,
 * which the table holds only as a hash: the database alone cannot read them back.
 */
function secretFor(key: string, scope: string): Buffer {
  return Buffer.from(hkdfSync('sha256', key, scope, 'bounty-marketplace idempotent answer', 32));
}

function seal(secret: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', secret, iv);
  const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `v1.${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64')}`;
}

function open(secret: Buffer, stored: string): string {
  const raw = Buffer.from(stored.slice(3), 'base64');
  const decipher = createDecipheriv('aes-256-gcm', secret, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

/** The `error.code` of a serialized error body, if it is one. */
function errorCode(payload: string): string | undefined {
  try {
    return (JSON.parse(payload) as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
}

function keeps(status: number, payload: unknown, contentType: unknown): payload is string {
  if (status >= 500 || MOMENTARY_STATUSES.has(status)) return false;
  // The table keeps no headers; every API answer is JSON, so that is what a replay says it is.
  if (typeof payload !== 'string' || !String(contentType ?? '').startsWith('application/json')) return false;
  const code = status === 409 ? errorCode(payload) : undefined;
  return code === undefined || !MOMENTARY_CODES.has(code);
}

const invalidKey = () =>
  new AppError('validation_error', 'The Idempotency-Key header is invalid.', [
    { field: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters (0x21-0x7E)' },
  ]);

export function registerIdempotency(app: FastifyInstance, opts: IdempotencyOptions): void {
  const { db, clock } = opts;
  app.decorateRequest('idempotency', null);

  const claim = async (request: FastifyRequest, reply: FastifyReply) => {
    // A route may take POST among other methods.
    if (request.method !== 'POST') return;
    const header = request.headers['idempotency-key'];
    if (header === undefined) return;
    // Node joins a repeated header with ", "; the space makes that invalid, as it should be.
    const key = Array.isArray(header) ? header.join(', ') : header;
    if (!KEY_SHAPE.test(key)) throw invalidKey();

    const scope = request.agent ? request.agent.id : `ip:${request.ip}`;
    const identity: repo.RequestIdentity = {
      scope,
      key: sha256(key),
      method: request.method,
      path: request.url,
      requestHash: requestHash(request.body),
    };
    const secret = secretFor(key, scope);
    // A record can vanish between the insert and the read (its answer was a 5xx): look again.
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = clock.now();
      const at = {
        now,
        lockSeconds: opts.lockSeconds,
        expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
      };
      const hold = (lockedUntil: Date, retryOfLost = false) => {
        request.idempotency = { scope, key: identity.key, lockedUntil, secret, retryOfLost };
      };
      const claimed = await repo.claim(db, identity, at);
      if (claimed) return hold(claimed);
      const row = await repo.find(db, identity);
      if (!row) continue;
      if (row.expiresAt > now) {
        if (
          row.method !== identity.method ||
          row.path !== identity.path ||
          row.requestHash !== identity.requestHash
        ) {
          throw new AppError(
            'idempotency_key_reused',
            'This Idempotency-Key was used for a different request; use a new key for a new request.',
          );
        }
        if (row.status === 'done' && row.responseStatus !== null && row.responseBody !== null) {
          return reply
            .code(row.responseStatus)
            .header('Idempotent-Replayed', 'true')
            .type(JSON_TYPE)
            .send(open(secret, row.responseBody));
        }
        if (row.locked) break;
        const taken = await repo.takeOver(db, identity, at);
        if (taken) return hold(taken, row.status !== 'done');
        continue;
      }
      const taken = await repo.takeOver(db, identity, at);
      if (taken) return hold(taken);
    }
    throw new AppError(
      'idempotency_in_progress',
      'A request with this Idempotency-Key is still running; retry once it has answered.',
    );
  };

  const keep = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const held = request.idempotency;
    if (!held) return payload;
    request.idempotency = null;
    try {
      // Awaited, so that once the client has the answer a retry is replayed, not refused as in progress.
      if (reply.statusCode === IN_FLIGHT_STATUS) {
        await repo.lapse(db, held);
      } else if (keeps(reply.statusCode, payload, reply.getHeader('content-type'))) {
        await repo.complete(db, held, { status: reply.statusCode, body: seal(held.secret, payload) });
      } else {
        await repo.release(db, held);
      }
    } catch (err) {
      // The answer still goes out; the record waits for its lock to lapse, then a retry runs again.
      request.log.error({ err }, 'idempotency record not saved');
    }
    return payload;
  };

  // The hooks go on the POST routes only, first among their own: the GETs, most requests, run
  // neither (as global hooks they cost every request two promises, for nothing).
  app.addHook('onRoute', (route) => {
    if (![route.method].flat().includes('POST') || EXCLUDED_ROUTES.has(route.url)) return;
    route.preHandler = [claim, ...[route.preHandler ?? []].flat()] as typeof route.preHandler;
    route.onSend = [keep, ...[route.onSend ?? []].flat()] as typeof route.onSend;
  });

  if (opts.purgeEverySeconds) startPurge(app, opts, opts.purgeEverySeconds);
}

/** Expired records are ignored anyway; this only keeps the table small. One pass at a time. */
function startPurge(app: FastifyInstance, opts: IdempotencyOptions, seconds: number): void {
  let running: Promise<unknown> | null = null;
  const pass = async () => {
    while ((await repo.purgeExpired(opts.db, opts.clock.now(), 1000)) === 1000);
  };
  const timer = setInterval(() => {
    if (running) return;
    running = pass()
      .catch((err: unknown) => app.log.error({ err }, 'idempotency purge failed'))
      .finally(() => {
        running = null;
      });
  }, seconds * 1000);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}
