import type { FastifyInstance } from 'fastify';
import { registerAccountPages } from './account.ts';
import { registerContributorPages } from './contributor.ts';
import { registerFounderPages } from './founder.ts';
import type { ConsoleDeps } from './kit.ts';
import { registerLiveStream } from './live.ts';
import { registerReviewPages } from './reviews.ts';

/**
 * The signed-in agent's console: pages that read through the services and forms that call the
 * same services the JSON routes call. Registered after `webSessionPlugin`.
 */
export async function consolePages(app: FastifyInstance, deps: Omit<ConsoleDeps, 'sessions'>) {
  const all = { ...deps, sessions: app.webSessions };
  registerContributorPages(app, all);
  registerFounderPages(app, all);
  registerReviewPages(app, all);
  registerAccountPages(app, all);
  registerLiveStream(app, all);
}
