import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../compose.ts';
import type { Config } from '../infra/config.ts';
import { bearerToken } from '../infra/http/auth.ts';
import { extraRequests } from '../infra/http/rate-limit.ts';
import type { Metrics } from '../infra/metrics.ts';
import type { RepoHost } from '../infra/repo-host/repo-host.ts';
import { AppError } from '../lib/errors.ts';

export interface McpRoutesOptions {
  services: Services;
  repoHost: RepoHost;
  config: Config;
  devChain: boolean;
  metrics: Metrics;
}

/**
 * Messages one POST may carry. Each counts against the rate limit anyway; the cap bounds how much
 * work one request starts at once (the SDK's transport refuses more than 100, without our envelope).
 */
export const MCP_MAX_BATCH = 50;

/**
 * The MCP SDK and the tools, loaded at the first MCP request, not at start-up: they are ~0.15 s of
 * module loading that every process start paid (and most never serve MCP).
 */
const importMcp = () =>
  Promise.all([import('@modelcontextprotocol/sdk/server/streamableHttp.js'), import('./mcp-server.ts')]);
let mcpModules: ReturnType<typeof importMcp> | undefined;
const loadMcp = () => (mcpModules ??= importMcp());

// A JSON-RPC message or a batch of them; the transport reads the rest. Declaring a body lets the
// request guards accept one (they refuse bodies on routes without a body schema).
const JsonRpcBody = Type.Union([Type.Object({}), Type.Array(Type.Object({}))]);

/**
 * `POST /mcp`: the Model Context Protocol over streamable HTTP, stateless. Each request gets its
 * own server and transport, built for the caller its bearer key names; nothing outlives the
 * request. Why stateless: every tool call is authenticated afresh (a rotated key stops at once),
 * any instance behind a load balancer can answer any request, and there are no sessions to expire
 * or leak. What it costs, a server-initiated stream on GET, no tool needs: progress travels on the
 * stream of the call it belongs to.
 */
export const mcpRoutes: FastifyPluginAsync<McpRoutesOptions> = async (app, opts) => {
  const { services, repoHost, devChain, metrics } = opts;
  // The global hook counted the request once; each further call of a batch counts one more.
  const chargeBatch = extraRequests(app);

  /** No key: public tools only. A key that does not authenticate: 401, as on every route. */
  const optionalAgent = async (request: FastifyRequest) => {
    // The answer streams over a hijacked reply the idempotency hook cannot keep; JSON-RPC ids name requests.
    delete request.headers['idempotency-key'];
    if (request.headers.authorization !== undefined) await app.authenticate(request);
  };

  app.post(
    '/mcp',
    { onRequest: optionalAgent, schema: { hide: true, body: JsonRpcBody } },
    async (request, reply) => {
      const calls = Array.isArray(request.body) ? request.body.length : 1;
      if (calls > MCP_MAX_BATCH)
        throw new AppError('validation_error', `A batch holds at most ${MCP_MAX_BATCH} messages.`, [
          { field: 'body', message: `has ${calls} messages; send at most ${MCP_MAX_BATCH} per request` },
        ]);
      try {
        await chargeBatch(request, reply, calls - 1);
      } catch (err) {
        if (err instanceof AppError && err.code === 'rate_limited')
          metrics.mcpCallsCounted('rate_limited', calls);
        throw err;
      }
      metrics.mcpCallsCounted('served', calls);
      const [{ StreamableHTTPServerTransport }, { buildMcpServer }] = await loadMcp();
      const server = buildMcpServer({
        services,
        repoHost,
        agent: request.agent,
        apiKey: request.agent ? bearerToken(request) : null,
        devChain,
        claimTtlHours: opts.config.claimTtlHours,
        log: request.log,
        // The client's hourly registration budget, the JSON route's and web sign-up's too. Each call
        // takes one atomically, so a batch gets exactly what is left accepted and the rest refused.
        countRegistration: () => app.clientBudgets.spendRegistration(request),
      });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      handOver(reply);
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      try {
        await server.connect(transport);
        await transport.handleRequest(request.raw, reply.raw, request.body);
      } catch (err) {
        request.log.error({ err }, 'MCP request failed');
        if (!reply.raw.headersSent) jsonRpcError(reply, 500, -32603, 'Internal error.');
        else reply.raw.end();
      }
    },
  );

  // Stateless: no standalone server-to-client stream and no session to end. The protocol's answer
  // to both is 405, which MCP clients expect and handle.
  const notAllowed = async (_request: FastifyRequest, reply: FastifyReply) => {
    reply.header('Allow', 'POST');
    return jsonRpcReply(reply, 405, -32000, 'Method not allowed: this MCP server is stateless; POST /mcp.');
  };
  app.get('/mcp', { onRequest: optionalAgent, schema: { hide: true } }, notAllowed);
  app.delete('/mcp', { onRequest: optionalAgent, schema: { hide: true } }, notAllowed);
};

/** Hands the raw response to the transport, with the headers hooks set so far (rate limits, request id). */
function handOver(reply: FastifyReply): void {
  reply.hijack();
  for (const [name, value] of Object.entries(reply.getHeaders()))
    if (value !== undefined) reply.raw.setHeader(name, value as string | number | string[]);
}

const jsonRpcBody = (code: number, message: string) => ({
  jsonrpc: '2.0',
  error: { code, message },
  id: null,
});

function jsonRpcReply(reply: FastifyReply, status: number, code: number, message: string) {
  return reply.status(status).type('application/json').send(jsonRpcBody(code, message));
}

function jsonRpcError(reply: FastifyReply, status: number, code: number, message: string): void {
  reply.raw
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify(jsonRpcBody(code, message)));
}
