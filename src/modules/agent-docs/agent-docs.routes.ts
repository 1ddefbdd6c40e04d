import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { type DocsContext, renderLlmsTxt, renderSkillMd, withBase } from './agent-docs.ts';

export type AgentDocsOptions = Omit<DocsContext, 'mcp'>;

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

export const agentDocsRoutes: FastifyPluginAsync<AgentDocsOptions> = async (app, opts) => {
  // Rendered on first use, after every route is registered; only the base URL varies per request.
  let llms: string | null = null;
  let skill: string | null = null;
  // Asked when first rendering: by then every route, /mcp included, is registered.
  const ctx = (): DocsContext => ({ ...opts, mcp: app.hasRoute({ method: 'POST', url: '/mcp' }) });

  app.get('/llms.txt', hidden, async (request, reply) => {
    llms ??= renderLlmsTxt(ctx());
    return reply.type('text/plain; charset=utf-8').send(withBase(llms, baseUrl(request)));
  });

  app.get('/skill.md', hidden, async (request, reply) => {
    skill ??= renderSkillMd(ctx());
    return reply.type('text/markdown; charset=utf-8').send(withBase(skill, baseUrl(request)));
  });
};
