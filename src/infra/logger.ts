import type { FastifyServerOptions } from 'fastify';
import type { Config } from './config.ts';

/** pino options for the request log; credentials never reach it. */
export function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    redact: { paths: ['req.headers.authorization', '*.api_key', '*.apiKey'], censor: '[redacted]' },
  };
}
