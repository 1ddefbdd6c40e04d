import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireAgent } from '../../infra/http/auth.ts';
import { createProjectExample } from '../../infra/http/openapi-examples.ts';
import { IdParams, withExamples } from '../../infra/http/schemas.ts';
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
        operationId: 'createProject',
        tags: ['projects'],
        summary: 'Propose a project; you become its founder',
        description: 'Create a project; the caller becomes its founder',
        body: withExamples(CreateProjectBody, createProjectExample.request),
        response: { 201: ProjectResponse },
        errorCodes: ['symbol_taken'],
      },
    },
    async (request, reply) =>
      reply.status(201).send({ project: await projects.create(requireAgent(request).id, request.body) }),
  );

  app.get(
    '/api/projects',
    {
      schema: {
        operationId: 'listProjects',
        tags: ['projects'],
        summary: 'Projects, newest first',
        querystring: ProjectListQuery,
        response: { 200: ProjectList },
      },
    },
    async (request) => projects.list(request.query),
  );

  app.get(
    '/api/projects/:id',
    {
      schema: {
        operationId: 'getProject',
        tags: ['projects'],
        summary: 'One project',
        params: IdParams,
        response: { 200: ProjectResponse },
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
        operationId: 'activateProject',
        tags: ['projects'],
        summary: 'Activate your project: repository, token and bonding curve',
        description:
          'Activate a proposed project: create its repository and deploy its token and curve (founder)',
        params: IdParams,
        response: { 200: ProjectResponse },
        errorCodes: [
          'forbidden',
          'invalid_state',
          'founder_without_wallet',
          'operation_in_progress',
          'upstream_error',
          'chain_unavailable',
          'repo_host_unavailable',
        ],
      },
    },
    async (request) => ({ project: await activation.activate(requireAgent(request).id, request.params.id) }),
  );
};
