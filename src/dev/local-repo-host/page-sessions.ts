import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * Who looks at the host's pages. A person signed in on the marketplace is signed in here through
 * a ticket the marketplace asks for (`issueTicket`, for the login of its signed-in agent): one
 * use, a minute long, redeemed at `/-/sign-in` for a session cookie of this host. The API key is
 * never in a page, a URL or a cookie. Sessions live in memory: the host is one process, and a
 * restart only asks the person to follow the marketplace link again.
 *
 * The cookie is `HttpOnly` and `SameSite=Lax` (so the redirect from the marketplace's sign-in
 * already carries it). On loopback the marketplace and this host differ only by port, which
 * cookies ignore: a form is accepted only when the browser says it comes from this very origin
 * and carries the session's token.
 */

export const PAGE_SESSION_COOKIE = 'local_host_session';
/** The form field carrying the session's synchronizer token. */
export const CSRF_FIELD = '_csrf';
const TICKET_TTL_MS = 60_000;
const SESSION_TTL_MS = 8 * 3600_000;
/** Kept at most (each); past it the oldest go first, so a loop of sign-ins cannot grow memory. */
const MAX_ENTRIES = 10_000;

export interface Viewer {
  login: string;
  csrf: string;
}

interface Entry {
  login: string;
  csrf: string;
  expiresAt: number;
}

const hash = (s: string) => createHash('sha256').update(s).digest('base64url');
const token = () => randomBytes(32).toString('base64url');

export class PageSessions {
  // Keyed by the SHA-256 of the secret: a lookup does not compare secrets byte by byte.
  private readonly tickets = new Map<string, { login: string; expiresAt: number }>();
  private readonly sessions = new Map<string, Entry>();

  constructor(private readonly now: () => number = Date.now) {}

  issueTicket(login: string): string {
    this.sweep();
    const ticket = token();
    this.tickets.set(hash(ticket), { login, expiresAt: this.now() + TICKET_TTL_MS });
    trim(this.tickets);
    return ticket;
  }

  /** A session token for a live ticket, which is spent; null for an unknown, used or old one. */
  redeem(ticket: string): { token: string; maxAgeSeconds: number } | null {
    this.sweep();
    const key = hash(ticket);
    const t = this.tickets.get(key);
    this.tickets.delete(key);
    if (!t || t.expiresAt <= this.now()) return null;
    const session = token();
    this.sessions.set(hash(session), {
      login: t.login,
      csrf: token(),
      expiresAt: this.now() + SESSION_TTL_MS,
    });
    trim(this.sessions);
    return { token: session, maxAgeSeconds: SESSION_TTL_MS / 1000 };
  }

  viewer(req: IncomingMessage): Viewer | null {
    const secret = cookieValue(req.headers.cookie, PAGE_SESSION_COOKIE);
    const s = secret ? this.sessions.get(hash(secret)) : undefined;
    return s && s.expiresAt > this.now() ? { login: s.login, csrf: s.csrf } : null;
  }

  end(req: IncomingMessage): void {
    const secret = cookieValue(req.headers.cookie, PAGE_SESSION_COOKIE);
    if (secret) this.sessions.delete(hash(secret));
  }

  private sweep(): void {
    const now = this.now();
    for (const [k, v] of this.tickets) if (v.expiresAt <= now) this.tickets.delete(k);
    for (const [k, v] of this.sessions) if (v.expiresAt <= now) this.sessions.delete(k);
  }
}

function trim(map: Map<string, unknown>): void {
  for (const key of map.keys()) {
    if (map.size <= MAX_ENTRIES) return;
    map.delete(key);
  }
}

function cookieValue(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || null;
  }
  return null;
}

export const sessionCookie = (value: string, maxAgeSeconds: number) =>
  `${PAGE_SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}`;

/**
 * A form of this session: the browser's `Sec-Fetch-Site` says same-origin (or, without it, its
 * `Origin` is this host, or it sends neither), and the session's token came back.
 */
export function acceptedForm(req: IncomingMessage, ownOrigin: string, viewer: Viewer, sent: string | null) {
  const site = req.headers['sec-fetch-site'];
  const origin = req.headers.origin;
  const sameOrigin =
    site !== undefined ? site === 'same-origin' : origin === undefined || origin === ownOrigin;
  if (!sameOrigin || sent === null) return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(viewer.csrf);
  return a.length === b.length && timingSafeEqual(a, b);
}
