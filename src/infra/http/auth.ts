import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isWellFormedApiKey } from '../../lib/api-key.ts';
import { AppError } from '../../lib/errors.ts';

export interface AuthAgent {
  id: string;
  name: string;
  walletAddress: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the `authenticate` hook on routes that need an agent. */
    agent: AuthAgent | null;
  }
  interface FastifyInstance {
    authenticate: (request: FastifyRequest) => Promise<void>;
  }
}

/** The bearer token of a request, or null when the header is absent or not a Bearer header. */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/** The agent behind a request. Throws 401 unless it carries a valid, current key. */
export function requireAgent(request: FastifyRequest): AuthAgent {
  if (!request.agent)
    throw new AppError('unauthorized', 'Send a valid API key as "Authorization: Bearer <key>".');
  return request.agent;
}

export function registerAuth(
  app: FastifyInstance,
  lookup: (apiKey: string) => Promise<AuthAgent | null>,
): void {
  app.decorateRequest('agent', null);
  app.decorate('authenticate', async (request: FastifyRequest) => {
    const key = bearerToken(request);
    if (!key) throw new AppError('unauthorized', 'This endpoint needs "Authorization: Bearer <API key>".');
    // The checksum turns away typos and random tokens without a database round trip.
    const agent = isWellFormedApiKey(key) ? await lookup(key) : null;
    if (!agent) throw new AppError('unauthorized', 'The API key is not valid.');
    request.agent = agent;
  });
}
