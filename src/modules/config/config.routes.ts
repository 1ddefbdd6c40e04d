import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PublicConfigResponse } from './config.schemas.ts';

export const configRoutes: FastifyPluginAsyncTypebox<{ publicConfig: () => unknown }> = async (
  app,
  { publicConfig },
) => {
  // Built once at start-up: configuration does not change while the process runs.
  const body = { config: publicConfig() };
  app.get(
    '/api/config/public',
    {
      schema: {
        operationId: 'getPublicConfig',
        tags: ['config'],
        summary: 'Chain, addresses, fee, repository host, limits',
        description: 'Public configuration: chain, addresses, fee, limits',
        response: { 200: PublicConfigResponse },
      },
    },
    async () => body as never,
  );
};
