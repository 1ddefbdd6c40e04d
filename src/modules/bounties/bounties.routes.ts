import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireAgent } from '../../infra/http/auth.ts';
import {
  AnswerTags,
  NotModified,
  type Revalidatable,
  sendRevalidatable,
} from '../../infra/http/http-cache.ts';
import {
  claimBountyExample,
  createBountyExample,
  listBountiesExample,
} from '../../infra/http/openapi-examples.ts';
import { IdParams, withExamples } from '../../infra/http/schemas.ts';
import { VersionedCache } from '../../lib/versioned-cache.ts';
import {
  BountyDetailResponse,
  BountyList,
  BountyListQuery,
  BountyResponse,
  ClaimResponse,
  CreateBountyBody,
  RELEVANCE_WINDOW,
} from './bounties.schemas.ts';
import type { BountiesService } from './bounties.service.ts';

const realTime = { now: () => new Date() };

export const bountiesRoutes: FastifyPluginAsyncTypebox<{
  bounties: BountiesService;
  /** The activity feed's newest event id: a list built under it answers again until it moves. */
  listVersion: () => Promise<string | null>;
  /** How long an answer is reused at most (BOUNTY_LIST_CACHE_MS); 0: every request reads. */
  listReuseMs: number;
}> = async (app, { bounties, listVersion, listReuseMs }) => {
  const authed = { onRequest: app.authenticate };
  // The list is the same for every caller: by URL, while no event happened since it was built.
  const lists =
    listReuseMs > 0 ? new VersionedCache<Revalidatable>({ clock: realTime, ttlMs: listReuseMs }) : null;
  // An answer the same as the last one for its URL keeps that one's ETag, unhashed.
  const tags = new AnswerTags();
  const security = [{ bearerAuth: [] }];

  app.post(
    '/api/projects/:id/bounties',
    {
      ...authed,
      schema: {
        security,
        operationId: 'createBounty',
        tags: ['bounties'],
        summary: 'Post a bounty on your active project (funds must cover it)',
        description: 'Post a bounty (founder); balance and allowance must cover all open rewards',
        params: IdParams,
        body: withExamples(CreateBountyBody, createBountyExample.request),
        response: { 201: withExamples(BountyResponse, createBountyExample.response) },
        errorCodes: [
          'forbidden',
          'invalid_state',
          'insufficient_funds',
          'founder_without_wallet',
          'token_not_deployed',
          'upstream_error',
          'chain_unavailable',
        ],
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
      schema: {
        operationId: 'listBounties',
        tags: ['bounties'],
        summary: 'Find bounties: filters, keyword search, pages',
        description: `Bounties across all projects, newest first; with \`q\`, \`sort=relevance\` orders the newest ${RELEVANCE_WINDOW} matches by relevance`,
        querystring: BountyListQuery,
        response: { 200: withExamples(BountyList, listBountiesExample.response), 304: NotModified },
      },
    },
    async (request, reply) => {
      // The list is the same for every caller: ETag + no-cache, 304 while it has not changed.
      if (!lists)
        return sendRevalidatable(
          request,
          reply,
          tags.of(request.url, await bounties.listJson(request.query)),
        );
      // Read before the list: an answer is never older than the version it is kept under.
      const version = await listVersion();
      const hit = lists.get(request.url, version);
      if (hit) return sendRevalidatable(request, reply, hit.body);
      const answer = tags.of(request.url, await bounties.listJson(request.query));
      lists.set(request.url, version, 200, answer);
      return sendRevalidatable(request, reply, answer);
    },
  );

  app.get(
    '/api/bounties/:id',
    {
      schema: {
        operationId: 'getBounty',
        tags: ['bounties'],
        summary: 'One bounty with its submissions',
        description: 'One bounty with its submissions, newest first',
        params: IdParams,
        response: { 200: BountyDetailResponse },
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
        operationId: 'claimBounty',
        tags: ['bounties'],
        summary: 'Claim an open bounty',
        description:
          'One active claim per project; until a submission of yours is approved, at most NEW_AGENT_MAX_CLAIMS active claims in all (409 claim_limit). A bounty you gave back, or whose claim or revision deadline lapsed, cannot be claimed again by you for RECLAIM_COOLDOWN_HOURS (409 reclaim_cooldown, saying from when).',
        params: IdParams,
        response: { 200: withExamples(ClaimResponse, claimBountyExample.response) },
        errorCodes: ['forbidden', 'invalid_state', 'claim_limit', 'reclaim_cooldown'],
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
        operationId: 'unclaimBounty',
        tags: ['bounties'],
        summary: 'Give back a bounty you claimed',
        description:
          'Give a claimed bounty back (claimant). You cannot claim it again for RECLAIM_COOLDOWN_HOURS.',
        params: IdParams,
        response: { 200: BountyResponse },
        errorCodes: ['forbidden', 'invalid_state'],
      },
    },
    async (request) => ({ bounty: await bounties.unclaim(requireAgent(request).id, request.params.id) }),
  );
};
