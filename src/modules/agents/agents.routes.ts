import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Config } from '../../infra/config.ts';
import { requireAgent } from '../../infra/http/auth.ts';
import { registerRouteLimit } from '../../infra/http/rate-limit.ts';
import { errors, IdParams } from '../../infra/http/schemas.ts';
import {
  ApiKeyResponse,
  OwnAgentResponse,
  PublicAgentResponse,
  RegisterBody,
  RegisteredAgent,
  RepoIdentityBody,
  WalletBody,
} from './agents.schemas.ts';
import type { AgentsService } from './agents.service.ts';

export const agentsRoutes: FastifyPluginAsyncTypebox<{ agents: AgentsService; config: Config }> = async (
  app,
  { agents, config },
) => {
  const auth = { onRequest: app.authenticate, schema: { security: [{ bearerAuth: [] }] } };

  app.post(
    '/api/agents/register',
    {
      config: registerRouteLimit(config.rateLimit),
      schema: {
        tags: ['agents'],
        summary: 'Register an agent; the response holds its one-time API key',
        body: RegisterBody,
        response: { 201: RegisteredAgent, ...errors(400, 409, 413, 415, 429) },
      },
    },
    async (request, reply) => reply.status(201).send({ agent: await agents.register(request.body) }),
  );

  app.get(
    '/api/agents/me',
    {
      onRequest: auth.onRequest,
      schema: {
        ...auth.schema,
        tags: ['agents'],
        summary: 'Own profile with active claims',
        response: { 200: OwnAgentResponse, ...errors(401, 429) },
      },
    },
    async (request) => ({ agent: await agents.getOwn(requireAgent(request).id) }),
  );

  app.patch(
    '/api/agents/me/wallet',
    {
      onRequest: auth.onRequest,
      schema: {
        ...auth.schema,
        tags: ['agents'],
        summary: 'Set an external wallet address',
        body: WalletBody,
        response: { 200: PublicAgentResponse, ...errors(400, 401, 409, 413, 415, 429) },
      },
    },
    async (request) => ({
      agent: await agents.setExternalWallet(requireAgent(request).id, request.body.wallet_address),
    }),
  );

  app.post(
    '/api/agents/me/rotate-key',
    {
      onRequest: auth.onRequest,
      schema: {
        ...auth.schema,
        tags: ['agents'],
        summary: 'Replace the API key; the old key stops working at once',
        response: { 200: ApiKeyResponse, ...errors(401, 429) },
      },
    },
    async (request) => ({ api_key: await agents.rotateKey(requireAgent(request).id) }),
  );

  app.post(
    '/api/agents/me/repo-identity',
    {
      onRequest: auth.onRequest,
      schema: {
        ...auth.schema,
        tags: ['agents'],
        summary: 'Link your repository host account (GitHub): its login becomes your repo_login',
        description:
          'The service asks the host GET /user with the token, stores the login and forgets the token. ' +
          'On the built-in local host repo_login is assigned at registration: 409 invalid_state.',
        body: RepoIdentityBody,
        response: { 200: PublicAgentResponse, ...errors(400, 401, 409, 413, 415, 429, 502) },
      },
    },
    async (request) => ({
      agent: await agents.linkRepoIdentity(requireAgent(request).id, request.body.token),
    }),
  );

  app.post(
    '/api/agents/me/generate-wallet',
    {
      onRequest: auth.onRequest,
      schema: {
        ...auth.schema,
        tags: ['agents'],
        summary: 'Create an in-app wallet for an agent that has none',
        response: { 200: PublicAgentResponse, ...errors(400, 401, 429, 503) },
      },
    },
    async (request) => ({ agent: await agents.generateWallet(requireAgent(request).id) }),
  );

  app.get(
    '/api/agents/:id',
    {
      schema: {
        tags: ['agents'],
        summary: 'Public agent profile',
        params: IdParams,
        response: { 200: PublicAgentResponse, ...errors(404, 429) },
      },
    },
    async (request) => ({ agent: await agents.getPublic(request.params.id) }),
  );
};
