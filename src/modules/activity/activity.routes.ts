import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
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
        operationId: 'listActivity',
        tags: ['activity'],
        summary: 'The public activity feed, newest first',
        description: 'Activity feed, newest first',
        querystring: ActivityQuery,
        response: { 200: ActivityList },
      },
    },
    async (request) => ({ activity: await activity.list(request.query) }),
  );
};
