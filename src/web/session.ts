import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, lt, ne, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Database, Db } from '../infra/db/client.ts';
import { agents } from '../infra/db/tables/marketplace.ts';
import { webSessions } from '../infra/db/tables/web.ts';
import { isWellFormedApiKey } from '../lib/api-key.ts';
import type { Clock } from '../lib/clock.ts';
import type { AgentsService } from '../modules/agents/agents.service.ts';
import { csrfRefused, sameOrigin, verifyCsrf } from './csrf.ts';
import { type FoundSession, RecentSessions, SESSION_CHANNEL } from './recent-sessions.ts';
import { safeNext } from './safe-next.ts';
import type { WebSession } from './web-core.ts';

export const SESSION_COOKIE = 'bm_session';
/** A session lasts this long from sign-in; signing in again starts a new one. */
export const SESSION_TTL_MS = 7 * 24 * 3600_000;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const randomToken = () => randomBytes(32).toString('base64url');

/**
 * Server-side sessions in `web_sessions`. The cookie holds a random token and the table only its
 * SHA-256, so a database leak opens no session; the API key that signed in is never kept.
 */
export class SessionStore {
  /** Every page a signed-in browser asks for runs this: a named statement, planned once. */
  private readonly byToken;
  /** The public pages' GETs read through this (recent-sessions.ts). */
  readonly recent: RecentSessions;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {
    this.byToken = db
      .select({
        agentId: webSessions.agentId,
        agentName: agents.name,
        csrfToken: webSessions.csrfToken,
        expiresAt: webSessions.expiresAt,
      })
      .from(webSessions)
      .innerJoin(agents, eq(agents.id, webSessions.agentId))
      .where(
        and(
          eq(webSessions.tokenHash, sql.placeholder('hash')),
          gt(webSessions.expiresAt, sql`${sql.placeholder('now')}::timestamptz`),
        ),
      )
      .limit(1)
      .prepare('web_session_by_token');
    this.recent = new RecentSessions(clock, (hash) => this.read(hash));
  }

  /** A new session for the agent: always a fresh token (no fixation), with its own CSRF token. */
  async create(agentId: string): Promise<{ token: string; expiresAt: Date }> {
    const now = this.clock.now();
    const token = randomToken();
    const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
    // Expired rows are swept on the way in: sign-ins are rare, and the index makes this cheap.
    await this.db.delete(webSessions).where(lt(webSessions.expiresAt, now));
    await this.db.insert(webSessions).values({
      tokenHash: hashToken(token),
      agentId,
      csrfToken: randomToken(),
      createdAt: now,
      expiresAt,
    });
    return { token, expiresAt };
  }

  /** The live session behind a cookie token, or null (unknown or expired). */
  async find(token: string): Promise<WebSession | null> {
    return (await this.read(hashToken(token)))?.session ?? null;
  }

  /** The same, read at most RECENT_SESSION_MS ago unless a session ended since: public GETs only. */
  async findRecent(token: string): Promise<WebSession | null> {
    return (await this.recent.find(hashToken(token)))?.session ?? null;
  }

  private async read(hash: string): Promise<FoundSession | null> {
    const [row] = await this.byToken.execute({ hash, now: this.clock.now().toISOString() });
    if (!row) return null;
    const { expiresAt, ...session } = row;
    return { session, expiresAt };
  }

  async remove(token: string): Promise<void> {
    await this.end(eq(webSessions.tokenHash, hashToken(token)));
  }

  /** Ends every session of the agent but this one (after a key rotation from the console). */
  async removeAll(agentId: string): Promise<void> {
    await this.end(eq(webSessions.agentId, agentId));
  }

  async removeOthers(agentId: string, keepToken: string): Promise<void> {
    await this.end(and(eq(webSessions.agentId, agentId), ne(webSessions.tokenHash, hashToken(keepToken))));
  }

  /**
   * Deletes sessions and tells every instance in the same transaction (delivered on commit), so no
   * instance's recent copy outlives the row; this one's is dropped at once.
   */
  private async end(where: SQL | undefined): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.delete(webSessions).where(where);
      await tx.execute(sql`select pg_notify(${SESSION_CHANNEL}, '')`);
    });
    this.recent.forget();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    webSessions: SessionStore;
  }
  interface FastifyContextConfig {
    /** A public page's GET: its session may be a recent copy (recent-sessions.ts), not a new read. */
    recentSession?: boolean;
  }
}

export { safeNext } from './safe-next.ts';

// JSON, MCP, assets and docs never read the session: no query for them even with the cookie sent.
const NO_SESSION = /^\/(api|mcp|assets|docs|openapi\.json|healthz|livez|readyz|metrics)(\/|$|\?)/;

const cookieOptions = (request: FastifyRequest) => ({
  httpOnly: true,
  sameSite: 'lax' as const,
  path: '/',
  // Behind a TLS-terminating proxy `protocol` follows X-Forwarded-Proto when TRUST_PROXY is set.
  secure: request.protocol === 'https',
});

/**
 * Signs this browser in as the agent (sign-in, and sign-up once the agent exists): a new session
 * and its cookie. Returns the cookie's token.
 */
export async function startSession(
  store: SessionStore,
  request: FastifyRequest,
  reply: FastifyReply,
  agentId: string,
): Promise<string> {
  const { token, expiresAt } = await store.create(agentId);
  reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions(request), expires: expiresAt });
  return token;
}

// Any form field the pages post: text, or several values of a checkbox group.
const FormBody = {
  type: 'object',
  additionalProperties: {
    anyOf: [
      { type: 'string', maxLength: 20_000 },
      { type: 'array', maxItems: 50, items: { type: 'string', maxLength: 200 } },
    ],
  },
} as const;
export const formRoute = { schema: { body: FormBody, hide: true }, attachValidation: true, page: true };

/**
 * Sign-in, sign-out and the hook that puts the signed-in agent on `request.webSession` for the
 * pages. Registered after `webCore` (cookies, forms, views).
 */
export const webSessionPlugin = fp(
  async (
    app: FastifyInstance,
    opts: {
      database: Pick<Database, 'db' | 'listen'>;
      clock: Clock;
      onKeyRotated: AgentsService['onKeyRotated'];
    },
  ) => {
    const store = new SessionStore(opts.database.db, opts.clock);
    app.decorate('webSessions', store);
    await store.recent.listen(opts.database).catch((err: unknown) => {
      app.log.warn({ err }, 'web sessions: LISTEN failed; every page reads its session row');
    });
    app.addHook('onClose', () => store.recent.close());
    // A rotated key may have leaked: every browser it signed in is signed out (through the API
    // too), but the console page that rotated it.
    opts.onKeyRotated((agentId, keep) =>
      keep ? store.removeOthers(agentId, keep) : store.removeAll(agentId),
    );

    // A callback, not an async hook: most requests (the API's) end at the first line, and an async
    // hook would cost each of them a promise.
    app.addHook('onRequest', (request, _reply, done) => {
      const token = request.cookies?.[SESSION_COOKIE];
      if (!token || NO_SESSION.test(request.url)) return done();
      const recent = request.routeOptions.config.recentSession === true;
      (recent ? store.findRecent(token) : store.find(token)).then((session) => {
        request.webSession = session;
        done();
      }, done);
    });

    const signInPage = (reply: FastifyReply, status: number, data: { next: string; error?: string }) =>
      reply
        .status(status)
        .header('cache-control', 'no-store')
        .view('sign-in.eta', { title: 'Sign in', session: null, ...data });

    app.get('/sign-in', { page: true, schema: { hide: true } }, async (request, reply) => {
      const next = safeNext((request.query as { next?: unknown }).next);
      if (request.webSession) return reply.redirect(next, 303);
      return signInPage(reply, 200, { next });
    });

    app.post('/sign-in', formRoute, async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      const next = safeNext(body.next);
      // Login CSRF: a foreign page must not sign the browser into someone else's account.
      if (!sameOrigin(request)) return csrfRefused(reply);
      const key = typeof body.api_key === 'string' ? body.api_key.trim() : '';
      // The checksum turns away typos without a database round trip, as the API's auth does.
      const agent = isWellFormedApiKey(key) ? await app.services.agents.authenticate(key) : null;
      if (!agent)
        return signInPage(reply, 401, { next, error: 'That API key is not valid. Check it and try again.' });
      await startSession(store, request, reply, agent.id);
      return reply.redirect(next, 303);
    });

    app.post('/sign-out', formRoute, async (request, reply) => {
      const session = request.webSession;
      if (!session) return reply.redirect('/', 303);
      if (!verifyCsrf(request, session)) return csrfRefused(reply);
      const token = request.cookies[SESSION_COOKIE];
      if (token) await store.remove(token);
      reply.clearCookie(SESSION_COOKIE, cookieOptions(request));
      return reply.redirect('/', 303);
    });
  },
  { name: 'web-session' },
);
