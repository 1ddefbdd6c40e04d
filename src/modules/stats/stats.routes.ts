import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { StatsResponse } from './stats.schemas.ts';
import type { StatsService } from './stats.service.ts';

export const statsRoutes: FastifyPluginAsyncTypebox<{ stats: StatsService }> = async (app, { stats }) => {
  app.get(
    '/api/dashboard/stats',
    {
      schema: {
        operationId: 'getStats',
        tags: ['activity'],
        summary: 'Marketplace statistics',
        description: 'Dashboard statistics',
        response: { 200: StatsResponse },
      },
    },
    async () => ({ stats: await stats.dashboard() }),
  );
};
