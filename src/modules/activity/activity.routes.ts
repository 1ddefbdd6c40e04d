import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors } from '../../infra/http/schemas.ts';
import { ActivityList, ActivityQuery } from './activity.schemas.ts';
import type { ActivityService } from './activity.service.ts';

export const activityRoutes: FastifyPluginAsyncTypebox<{ activity: ActivityService }> = async (
  app,
  { activity },
) => {
  app.get(
    '/api/activity',
    {
      schema: {
        tags: ['activity'],
        summary: 'Activity feed, newest first',
        querystring: ActivityQuery,
        response: { 200: ActivityList, ...errors(400, 429) },
      },
    },
    async (request) => ({ activity: await activity.list(request.query) }),
  );
};
