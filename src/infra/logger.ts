import type { FastifyRequest } from 'fastify';
import { type DestinationStream, type Logger, pino } from 'pino';
import pinoPretty from 'pino-pretty';
import { API_KEY_PREFIX } from '../lib/api-key.ts';
import type { Config } from './config.ts';
import { stdoutTurnWriter } from './log-writer.ts';

/**
 * Query parameters whose values are credentials: `api_key`, `key`, `token`, `access_token`,
 * `secret`, `password`, `signature`, ... Clients put keys in URLs despite the docs, and request
 * logs end up in places with weaker access control than the database.
 */
const SECRET_PARAM = /key|token|secret|passw(or)?d|auth|signature|^sig$|credential|session/i;

/** A character as it may appear in a log: itself, or percent-encoded once or more (`%62`, `%2562`). */
const encodedChar = (c: string) => {
  const hex = c.charCodeAt(0).toString(16);
  return `(?:${c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}|%(?:25)*(?:${hex}|${hex.toUpperCase()}))`;
};
/** A base62 character, itself or percent-encoded: `0-9` is 30-39, `A-Z` 41-5A, `a-z` 61-7A. */
const KEY_CHAR = '(?:[0-9A-Za-z]|%(?:25)*(?:3[0-9]|4[1-9A-Fa-f]|5[0-9Aa]|6[1-9A-Fa-f]|7[0-9Aa]))';

/**
 * An API key anywhere in a text, found by its prefix (`bmk_`, then base62), also when any of its
 * characters is percent-encoded (`%62mk_...`, `bmk%5F...`, `%2562mk_...`): what a server decodes
 * is a key, so what it logs before decoding is one too.
 */
const API_KEY_ANYWHERE = new RegExp(`${[...API_KEY_PREFIX].map(encodedChar).join('')}${KEY_CHAR}+`, 'g');

/**
 * The text with every API key in it (found by its prefix, plain or percent-encoded) replaced by
 * `bmk_[redacted]`.
 */
export const redactKeys = (text: string): string =>
  text.includes(API_KEY_PREFIX) || text.includes('%')
    ? text.replace(API_KEY_ANYWHERE, `${API_KEY_PREFIX}[redacted]`)
    : text;

/**
 * The URL with the value of every credential-like query parameter replaced by `[redacted]`, and
 * any API key elsewhere in it (a path, `?q=bmk_...`) by its prefix.
 */
export function redactUrl(raw: string): string {
  const url = redactKeys(raw);
  const q = url.indexOf('?');
  if (q === -1) return url;
  const params = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq === -1 ? pair : pair.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        // Not valid percent-encoding: match the name as sent.
      }
      return SECRET_PARAM.test(name) ? `${rawName}=[redacted]` : pair;
    });
  return `${url.slice(0, q)}?${params.join('&')}`;
}

/** Fields whose values are secrets (an API key, a wallet's key) in any object a line logs. */
const SECRET_FIELDS = ['api_key', 'apiKey', 'privateKey'] as const;
const CENSOR = '[redacted]';

/** A copy of `fields` with each secret field it has replaced by the censor. */
function censorFields<T extends object>(fields: T): T {
  const out = { ...fields } as Record<string, unknown>;
  for (const f of SECRET_FIELDS) if (f in out) out[f] = CENSOR;
  return out as T;
}

const holdsSecret = (value: object) => SECRET_FIELDS.some((f) => f in value);

/**
 * pino's error serializer, with API keys in the message and stack redacted by their prefix and
 * the secret fields an error carries censored.
 */
function serializeError(err: Error) {
  const out = pino.stdSerializers.err(err);
  const safe = { ...out, message: redactKeys(out.message ?? ''), stack: redactKeys(out.stack ?? '') };
  return holdsSecret(safe) ? censorFields(safe) : safe;
}

/**
 * Censors the secret fields of a line (`{ privateKey }`) and of every object it logs
 * (`{ wallet: { privateKey } }`, one level down, as pino's `redact` paths `*.api_key`, `*.apiKey`,
 * `*.privateKey` did; those never covered the line's own fields): a copy where there is
 * one, the caller's object untouched, and no copy at all for a line without one. pino's `redact`
 * with those paths cloned the objects of every line to look: 10.4 µs a line against 3.3 now
 * (bench/README.md, "The access log"). An error under `err` is censored by its serializer; one
 * under another key is serialized here. A request's headers never reach a line
 * (`serializeRequest` keeps none); an API key anywhere else is redacted by its prefix on the
 * written line (`streamWrite`).
 */
function censorSecrets(line: Record<string, unknown>): Record<string, unknown> {
  let out = holdsSecret(line) ? censorFields(line) : line;
  for (const key in line) {
    const value = line[key];
    if (value === null || typeof value !== 'object' || out[key] === CENSOR || !holdsSecret(value)) continue;
    if (value instanceof Error && key === 'err') continue;
    if (out === line) out = { ...line };
    out[key] = value instanceof Error ? serializeError(value) : censorFields(value);
  }
  return out;
}

/** Fastify's own request serializer, with the URL redacted. */
function serializeRequest(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    version: req.headers?.['accept-version'],
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/**
 * Human-readable lines for a person at a terminal; JSON lines for anything that collects logs
 * (a pipe, a file, a container runtime). LOG_FORMAT overrides the guess.
 */
export function wantsPretty(format: Config['logFormat'], isTty = process.stdout.isTTY === true): boolean {
  return format === undefined ? isTty : format === 'pretty';
}

/**
 * The process logger (pino, to stdout unless a destination is given, as JSON lines or pretty, see
 * wantsPretty); credentials never reach it, in either format: redaction runs before formatting.
 */
export function createLogger(
  config: Pick<Config, 'logLevel'> & Partial<Pick<Config, 'logFormat'>>,
  destination?: DestinationStream,
): Logger {
  // Pretty lines synchronously, JSON lines once per event-loop turn (log-writer.ts); either way
  // the lines logged just before process.exit() get out.
  const stream =
    destination ??
    (wantsPretty(config.logFormat)
      ? pinoPretty({ sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' })
      : stdoutTurnWriter());
  return pino(
    {
      level: config.logLevel,
      formatters: { log: censorSecrets },
      serializers: { req: serializeRequest, err: serializeError },
      // A key pasted into a message (an error that quotes a request, say) is redacted by its prefix.
      hooks: {
        // And the last word, on the whole line as written: a key in any field (a URL logged under
        // its own name, a body, an error's properties), plain or percent-encoded, never leaves.
        streamWrite: redactKeys,
        logMethod(args, method) {
          method.apply(
            this,
            args.map((a) => (typeof a === 'string' ? redactKeys(a) : a)) as Parameters<typeof method>,
          );
        },
      },
    },
    stream,
  );
}
