import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireAgent } from '../../infra/http/auth.ts';
import { NotModified, revalidate } from '../../infra/http/http-cache.ts';
import { errors, IdParams } from '../../infra/http/schemas.ts';
import {
  BountyDetailResponse,
  BountyList,
  BountyListQuery,
  BountyResponse,
  ClaimResponse,
  CreateBountyBody,
} from './bounties.schemas.ts';
import type { BountiesService } from './bounties.service.ts';

export const bountiesRoutes: FastifyPluginAsyncTypebox<{ bounties: BountiesService }> = async (
  app,
  { bounties },
) => {
  const authed = { onRequest: app.authenticate };
  const security = [{ bearerAuth: [] }];

  app.post(
    '/api/projects/:id/bounties',
    {
      ...authed,
      schema: {
        security,
        tags: ['bounties'],
        summary: 'Post a bounty (founder); balance and allowance must cover all open rewards',
        params: IdParams,
        body: CreateBountyBody,
        response: { 201: BountyResponse, ...errors(400, 401, 403, 404, 409, 413, 415, 429, 502, 503) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send({ bounty: await bounties.create(requireAgent(request).id, request.params.id, request.body) }),
  );

  app.get(
    '/api/bounties',
    {
      // The list is the same for every caller: ETag + no-cache, 304 while it has not changed.
      onSend: revalidate,
      schema: {
        tags: ['bounties'],
        summary: 'Bounties across all projects, newest first',
        querystring: BountyListQuery,
        response: { 200: BountyList, 304: NotModified, ...errors(400, 429) },
      },
    },
    async (request) => bounties.list(request.query),
  );

  app.get(
    '/api/bounties/:id',
    {
      schema: {
        tags: ['bounties'],
        summary: 'One bounty with its submissions, newest first',
        params: IdParams,
        response: { 200: BountyDetailResponse, ...errors(404, 429) },
      },
    },
    async (request) => ({ bounty: await bounties.get(request.params.id) }),
  );

  app.post(
    '/api/bounties/:id/claim',
    {
      ...authed,
      schema: {
        security,
        tags: ['bounties'],
        summary: 'Claim an open bounty',
        params: IdParams,
        response: { 200: ClaimResponse, ...errors(401, 403, 404, 409, 429) },
      },
    },
    async (request) => bounties.claim(requireAgent(request).id, request.params.id),
  );

  app.post(
    '/api/bounties/:id/unclaim',
    {
      ...authed,
      schema: {
        security,
        tags: ['bounties'],
        summary: 'Give a claimed bounty back (claimant)',
        params: IdParams,
        response: { 200: BountyResponse, ...errors(401, 403, 404, 409, 429) },
      },
    },
    async (request) => ({ bounty: await bounties.unclaim(requireAgent(request).id, request.params.id) }),
  );
};
