import type { FastifyRequest } from 'fastify';
import { type DestinationStream, type Logger, pino } from 'pino';
import pinoPretty from 'pino-pretty';
import type { Config } from './config.ts';

/**
 * Query parameters whose values are credentials: `api_key`, `key`, `token`, `access_token`,
 * `secret`, `password`, `signature`, ... Clients put keys in URLs despite the docs, and request
 * logs end up in places with weaker access control than the database.
 */
const SECRET_PARAM = /key|token|secret|passw(or)?d|auth|signature|^sig$|credential|session/i;

/** The URL with the value of every credential-like query parameter replaced by `[redacted]`. */
export function redactUrl(url: string): string {
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
  // Synchronous, like pino's default stdout: the lines logged just before process.exit() get out.
  const pretty =
    !destination && wantsPretty(config.logFormat)
      ? pinoPretty({ sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' })
      : undefined;
  return pino(
    {
      level: config.logLevel,
      redact: {
        paths: ['req.headers.authorization', '*.api_key', '*.apiKey', '*.privateKey'],
        censor: '[redacted]',
      },
      serializers: { req: serializeRequest },
    },
    destination ?? pretty,
  );
}
