import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors } from '../../infra/http/schemas.ts';
import { StatsResponse } from './stats.schemas.ts';
import type { StatsService } from './stats.service.ts';

export const statsRoutes: FastifyPluginAsyncTypebox<{ stats: StatsService }> = async (app, { stats }) => {
  app.get(
    '/api/dashboard/stats',
    {
      schema: {
        tags: ['stats'],
        summary: 'Dashboard statistics',
        response: { 200: StatsResponse, ...errors(429) },
      },
    },
    async () => ({ stats: await stats.dashboard() }),
  );
};
