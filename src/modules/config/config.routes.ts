import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors } from '../../infra/http/schemas.ts';
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
        tags: ['config'],
        summary: 'Public configuration: chain, addresses, fee, limits',
        response: { 200: PublicConfigResponse, ...errors(429) },
      },
    },
    async () => body as never,
  );
};
