import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  type Progress,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { MCP_SERVER_NAME } from './mcp-server.ts';

const PROGRESS_SETTLE_MS = 20;

export interface StdioMcpOptions {
  /** The marketplace's base URL (BOUNTY_API_URL); the tools are served at `{baseUrl}/mcp`. */
  baseUrl: string;
  /** The agent's API key (BOUNTY_API_KEY); without one only the public tools work. */
  apiKey?: string | null;
  /** For tests: where to serve; the process's stdin and stdout otherwise. */
  transport?: Transport;
}

export interface StdioMcp {
  close(): Promise<void>;
  /** Resolves once the stdio side has closed (stdin ended or close() was called). */
  closed: Promise<void>;
}

/**
 * `bounty mcp`: the service's MCP tools over stdio, for agent hosts that launch a local command.
 * A bridge, not a second implementation: tools/list and tools/call (with their progress), and the
 * resources and prompts requests, are forwarded to the service's own `POST /mcp` with the agent's
 * key, so there is one source of tools, resources and prompts.
 */
export async function runStdioMcp(opts: StdioMcpOptions): Promise<StdioMcp> {
  const endpoint = new URL('mcp', opts.baseUrl.endsWith('/') ? opts.baseUrl : `${opts.baseUrl}/`);
  const upstream = new Client({ name: `${MCP_SERVER_NAME}-stdio`, version: '1.0.0' });
  await upstream
    .connect(
      new StreamableHTTPClientTransport(endpoint, {
        requestInit: opts.apiKey ? { headers: { authorization: `Bearer ${opts.apiKey}` } } : {},
      }),
    )
    .catch((err: unknown) => {
      throw new Error(
        `Cannot reach the marketplace MCP server at ${endpoint.href}: ${(err as Error).message}`,
      );
    });

  const server = new Server(upstream.getServerVersion() ?? { name: MCP_SERVER_NAME, version: '1.0.0' }, {
    capabilities: { tools: {}, resources: {}, prompts: {} },
    ...(upstream.getInstructions() ? { instructions: upstream.getInstructions() as string } : {}),
  });
  server.setRequestHandler(ListToolsRequestSchema, (request, extra) =>
    upstream.listTools(request.params, { signal: extra.signal }),
  );
  // Resources and prompts are plain requests: forwarded as they are, errors with their own code.
  server.setRequestHandler(ListResourcesRequestSchema, (request, extra) =>
    relayed(upstream.listResources(request.params, { signal: extra.signal })),
  );
  server.setRequestHandler(ListResourceTemplatesRequestSchema, (request, extra) =>
    relayed(upstream.listResourceTemplates(request.params, { signal: extra.signal })),
  );
  server.setRequestHandler(ReadResourceRequestSchema, (request, extra) =>
    relayed(upstream.readResource(request.params, { signal: extra.signal })),
  );
  server.setRequestHandler(ListPromptsRequestSchema, (request, extra) =>
    relayed(upstream.listPrompts(request.params, { signal: extra.signal })),
  );
  server.setRequestHandler(GetPromptRequestSchema, (request, extra) =>
    relayed(upstream.getPrompt(request.params, { signal: extra.signal })),
  );
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const token = request.params._meta?.progressToken;
    const { _meta: _ignored, ...params } = request.params;
    // Progress is relayed in order, and all of it before the result: a client drops progress
    // that arrives after the result of its call.
    let relayed = Promise.resolve();
    let sentProgress = false;
    const relay = (progress: Progress) => {
      if (token === undefined) return;
      sentProgress = true;
      relayed = relayed.then(() =>
        extra
          .sendNotification({
            method: 'notifications/progress',
            params: { ...progress, progressToken: token },
          })
          .catch(() => {}),
      );
    };
    // A raw request, not callTool: the host's client validates the result against the schema it listed.
    const result = await upstream.request({ method: 'tools/call', params }, CallToolResultSchema, {
      signal: extra.signal,
      // Long calls (activation) stay alive while the service reports progress.
      resetTimeoutOnProgress: true,
      onprogress: relay,
    });
    // The result goes last. A client that reads progress and result in one chunk of stdin still
    // drops the progress (the SDK retires the token first: typescript-sdk#2580), so when there was
    // progress, a short pause gives the last of it a read of its own.
    await new Promise((resolve) => setImmediate(resolve));
    await relayed;
    if (sentProgress) await new Promise((resolve) => setTimeout(resolve, PROGRESS_SETTLE_MS));
    return result;
  });

  let markClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  const close = async () => {
    await server.close().catch(() => {});
    await upstream.close().catch(() => {});
    markClosed();
  };
  server.onclose = () => void close();
  const transport = opts.transport ?? new StdioServerTransport();
  if (!opts.transport) {
    // The host ends the server by closing its stdin; the SDK transport does not notice that alone.
    process.stdin.once('end', () => void close());
  }
  await server.connect(transport);
  return { close, closed };
}

/**
 * The service's JSON-RPC error passed on with its code, message and data: rethrown as received, the
 * SDK's McpError would carry its message again behind a second "MCP error <code>:" prefix.
 */
async function relayed<T>(answer: Promise<T>): Promise<T> {
  try {
    return await answer;
  } catch (err) {
    if (!(err instanceof McpError)) throw err;
    const message = err.message.replace(`MCP error ${err.code}: `, '');
    throw Object.assign(new Error(message), { code: err.code, data: err.data });
  }
}
