import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import { API_MARKDOWN, type DocsContext, renderLlmsTxt, renderSkillMd, withBase } from './agent-docs.ts';
import {
  OPERATIONS_INDEX,
  type OpenApiDocument,
  renderOperationPages,
  renderOperationsIndex,
} from './operation-pages.ts';

export type AgentDocsOptions = Omit<DocsContext, 'mcp' | 'apiMarkdown'>;

/**
 * docs/api.md of the checkout: this module sits three levels below the repository root both as
 * source (src/modules/agent-docs) and as the build `npm start` runs (dist/modules/agent-docs).
 */
const API_MD_FILE = fileURLToPath(new URL('../../../docs/api.md', import.meta.url));

/** A Host header that could not be a host name (or [IPv6]) and port is not echoed into the documents. */
const HOST_SHAPE = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/** The base URL clients reached us at (X-Forwarded-Proto and -Host count with TRUST_PROXY). */
function baseUrl(request: FastifyRequest): string {
  const host = HOST_SHAPE.test(request.host) ? request.host : 'localhost';
  return `${request.protocol}://${host}`;
}

/**
 * Not in the OpenAPI document: they describe the API rather than being part of it, and llms.txt
 * is where an agent starts, before it knows of /openapi.json.
 */
const hidden = { schema: { hide: true } };
const MARKDOWN = 'text/markdown; charset=utf-8';

export const agentDocsRoutes: FastifyPluginAsync<AgentDocsOptions> = async (app, opts) => {
  // Rendered on first use, after every route is registered; only the base URL varies per request.
  let llms: string | null = null;
  let skill: string | null = null;
  let index: string | null = null;
  let pages: Map<string, string> | null = null;
  let apiMd: string | null = null;
  // Asked when first rendering: by then every route, /mcp included, is registered.
  const ctx = (): DocsContext => ({
    ...opts,
    mcp: app.hasRoute({ method: 'POST', url: '/mcp' }),
    apiMarkdown: existsSync(API_MD_FILE),
  });

  app.get('/llms.txt', hidden, async (request, reply) => {
    llms ??= renderLlmsTxt(ctx());
    return reply.type('text/plain; charset=utf-8').send(withBase(llms, baseUrl(request)));
  });

  app.get('/skill.md', hidden, async (request, reply) => {
    skill ??= renderSkillMd(ctx());
    return reply.type(MARKDOWN).send(withBase(skill, baseUrl(request)));
  });

  // The API decisions, as written: what llms.txt links for the MCP server and the API's choices.
  app.get(API_MARKDOWN, hidden, async (_request, reply) => {
    if (apiMd === null) {
      if (!existsSync(API_MD_FILE))
        throw new AppError('not_found', 'docs/api.md is not deployed with this service; read /skill.md.');
      apiMd = readFileSync(API_MD_FILE, 'utf8');
    }
    return reply.type(MARKDOWN).send(apiMd);
  });

  app.get(OPERATIONS_INDEX, hidden, async (request, reply) => {
    index ??= renderOperationsIndex(opts.catalog.routes);
    return reply.type(MARKDOWN).send(withBase(index, baseUrl(request)));
  });

  // `/docs/operations/{operationId}.md`, generated from the document the route schemas make.
  app.get<{ Params: { page: string } }>('/docs/operations/:page', hidden, async (request, reply) => {
    pages ??= renderOperationPages(opts.catalog.routes, app.swagger() as unknown as OpenApiDocument);
    const page = pages.get(request.params.page.replace(/\.md$/, ''));
    if (!page || !request.params.page.endsWith('.md'))
      throw new AppError(
        'not_found',
        `No operation page ${request.params.page}; ${OPERATIONS_INDEX} lists every one.`,
      );
    return reply.type(MARKDOWN).send(withBase(page, baseUrl(request)));
  });
};
