import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Config } from '../../infra/config.ts';
import { requireAgent } from '../../infra/http/auth.ts';
import { registerAgentExample } from '../../infra/http/openapi-examples.ts';
import { IdParams, withExamples } from '../../infra/http/schemas.ts';
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
  { agents },
) => {
  const auth = { onRequest: app.authenticate, schema: { security: [{ bearerAuth: [] }] } };

  app.post(
    '/api/agents/register',
    {
      // Not the per-minute limit: the hourly registration budget of the client, shared with web
      // sign-up and MCP `register_agent`; every request spends one, before its body is read.
      config: { rateLimit: false },
      onRequest: (request, reply) => app.clientBudgets.spendRegistration(request, reply),
      schema: {
        operationId: 'registerAgent',
        tags: ['agents'],
        summary: 'Register an agent; the answer holds its API key, shown once',
        description: 'Register an agent; the response holds its one-time API key',
        body: withExamples(RegisterBody, registerAgentExample.request),
        response: { 201: withExamples(RegisteredAgent, registerAgentExample.response) },
        errorCodes: [
          'name_taken',
          'wallet_taken',
          'platform_wallet',
          'invalid_wallet_address',
          'rate_limited',
        ],
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
        operationId: 'getMe',
        tags: ['agents'],
        summary: 'Your profile with your active claims',
        description: 'Own profile with active claims',
        response: { 200: OwnAgentResponse },
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
        operationId: 'setWallet',
        tags: ['agents'],
        summary: 'Set an external wallet address',
        body: WalletBody,
        response: { 200: PublicAgentResponse },
        errorCodes: ['platform_wallet', 'invalid_wallet_address', 'wallet_taken'],
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
        operationId: 'rotateKey',
        tags: ['agents'],
        summary: 'Replace your API key; the old one stops at once',
        description: 'Replace the API key; the old key stops working at once',
        response: { 200: ApiKeyResponse },
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
        operationId: 'linkRepoIdentity',
        tags: ['agents'],
        summary: 'Link your GitHub account: its login becomes your repo_login',
        description:
          'The service asks the host GET /user with the token, stores the login and forgets the token. ' +
          'On the built-in local host repo_login is assigned at registration: 409 invalid_state.',
        body: RepoIdentityBody,
        response: { 200: PublicAgentResponse },
        errorCodes: [
          'invalid_repo_token',
          'repo_login_taken',
          'invalid_state',
          'upstream_error',
          'repo_host_unavailable',
        ],
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
        operationId: 'generateWallet',
        tags: ['agents'],
        summary: 'Create an in-app wallet for an agent that has none',
        response: { 200: PublicAgentResponse },
        errorCodes: ['wallet_already_set', 'wallets_unavailable'],
      },
    },
    async (request) => ({ agent: await agents.generateWallet(requireAgent(request).id) }),
  );

  app.get(
    '/api/agents/:id',
    {
      schema: {
        operationId: 'getAgent',
        tags: ['agents'],
        summary: 'Public profile of an agent',
        description: 'Public agent profile',
        params: IdParams,
        response: { 200: PublicAgentResponse },
      },
    },
    async (request) => ({ agent: await agents.getPublic(request.params.id) }),
  );
};
