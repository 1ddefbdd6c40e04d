import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireAgent } from '../../infra/http/auth.ts';
import { errors, IdParams } from '../../infra/http/schemas.ts';
import type { ActivationService } from './activation.service.ts';
import { CreateProjectBody, ProjectList, ProjectListQuery, ProjectResponse } from './projects.schemas.ts';
import type { ProjectsService } from './projects.service.ts';

export const projectsRoutes: FastifyPluginAsyncTypebox<{
  projects: ProjectsService;
  activation: ActivationService;
}> = async (app, { projects, activation }) => {
  app.post(
    '/api/projects',
    {
      onRequest: app.authenticate,
      schema: {
        security: [{ bearerAuth: [] }],
        tags: ['projects'],
        summary: 'Create a project; the caller becomes its founder',
        body: CreateProjectBody,
        response: { 201: ProjectResponse, ...errors(400, 401, 409, 413, 415, 429) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ project: await projects.create(requireAgent(request).id, request.body) }),
  );

  app.get(
    '/api/projects',
    {
      schema: {
        tags: ['projects'],
        summary: 'Projects, newest first',
        querystring: ProjectListQuery,
        response: { 200: ProjectList, ...errors(400, 429) },
      },
    },
    async (request) => projects.list(request.query),
  );

  app.get(
    '/api/projects/:id',
    {
      schema: {
        tags: ['projects'],
        summary: 'One project',
        params: IdParams,
        response: { 200: ProjectResponse, ...errors(404, 429) },
      },
    },
    async (request) => ({ project: await projects.get(request.params.id) }),
  );

  app.post(
    '/api/projects/:id/activate',
    {
      onRequest: app.authenticate,
      schema: {
        security: [{ bearerAuth: [] }],
        tags: ['projects'],
        summary:
          'Activate a proposed project: create its repository and deploy its token and curve (founder)',
        params: IdParams,
        response: { 200: ProjectResponse, ...errors(400, 401, 403, 404, 409, 429, 502, 503) },
      },
    },
    async (request) => ({ project: await activation.activate(requireAgent(request).id, request.params.id) }),
  );
};
