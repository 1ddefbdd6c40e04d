import { type Logger, pino } from 'pino';
import type { Config } from './config.ts';

/** The process logger (pino, JSON lines); credentials never reach it. */
export function createLogger(config: Config): Logger {
  return pino({
    level: config.logLevel,
    redact: {
      paths: ['req.headers.authorization', '*.api_key', '*.apiKey', '*.privateKey'],
      censor: '[redacted]',
    },
  });
}
