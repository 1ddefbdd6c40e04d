import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Static, TObject, TSchema } from 'typebox';
import * as z from 'zod';
import type { Services } from '../compose.ts';
import type { AuthAgent } from '../infra/http/auth.ts';
import { toDetails, validatorCompiler } from '../infra/http/validation.ts';
import type { RepoHost } from '../infra/repo-host/repo-host.ts';
import { AppError } from '../lib/errors.ts';

/** What every tool of one MCP request sees: the services, and who is calling. */
export interface ToolContext {
  services: Services;
  repoHost: RepoHost;
  /** The caller, or null when the request carried no key (only public tools work). */
  agent: AuthAgent | null;
  /** The caller's key: the credential for its own writes on the local repository host. */
  apiKey: string | null;
  devChain: boolean;
  /** CLAIM_TTL_HOURS: when a claim without a submission lapses (`me://work` says when). */
  claimTtlHours: number;
  log: FastifyBaseLogger;
  /** Counts one registration against the caller's hourly budget; throws 429 `rate_limited` past it. */
  countRegistration(): Promise<void>;
}

/** A bounty with its submissions, as `GET /api/bounties/{id}` and `bounty://{id}` give it. */
export type BountyDetail = Awaited<ReturnType<Services['bounties']['get']>>;

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** The caller, or a tool error an agent can act on. */
export function requireAgent(ctx: ToolContext): AuthAgent {
  if (!ctx.agent)
    throw new AppError(
      'unauthorized',
      'This tool needs your API key: reconnect to the MCP server with the header "Authorization: Bearer <api_key>" ' +
        '(register_agent gives you one).',
    );
  return ctx.agent;
}

/**
 * Runs a tool body. A result is both text (for models that read only text) and
 * `structuredContent`; an AppError becomes an `isError` result carrying `{code, message}`, as the
 * JSON API would answer it. Anything else is logged and hidden, as the error handler does.
 */
export async function run(ctx: ToolContext, body: () => Promise<object>): Promise<CallToolResult> {
  try {
    const result = (await body()) as Record<string, unknown>;
    return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
  } catch (err) {
    const appErr = toolError(ctx, err);
    const error = {
      code: appErr.code,
      message: appErr.message,
      ...(appErr.details ? { details: appErr.details } : {}),
    };
    return {
      isError: true,
      content: [{ type: 'text', text: `${error.code}: ${error.message}${detailText(appErr)}` }],
      structuredContent: error,
    };
  }
}

/**
 * What a caller is told of a failure: an AppError as it is; anything else logged and hidden behind
 * `internal_error`, as the error handler does. A 5xx is logged either way.
 */
export function toolError(ctx: ToolContext, err: unknown): AppError {
  const appErr =
    err instanceof AppError
      ? err
      : new AppError('internal_error', 'Something went wrong on our side; it has been logged.');
  if (appErr.status >= 500) ctx.log.error({ err }, 'MCP call failed');
  return appErr;
}

/**
 * A failed resource read or prompt, as the protocol carries it: the SDK answers a thrown error with
 * its integer `code`, its `message` and its `data` (an McpError would prefix "MCP error <code>:").
 * -32002 is the protocol's "resource not found"; any other refusal is about the request (-32602),
 * our own failure -32603. `data` is the API's `{code, message}`.
 */
export class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: { code: string; message: string },
  ) {
    super(message);
  }
}

export function protocolError(ctx: ToolContext, err: unknown): ProtocolError {
  const appErr = toolError(ctx, err);
  const rpc = appErr.code === 'not_found' ? -32002 : appErr.status >= 500 ? -32603 : -32602;
  return new ProtocolError(rpc, `${appErr.code}: ${appErr.message}`, {
    code: appErr.code,
    message: appErr.message,
  });
}

const detailText = (err: AppError) =>
  err.details ? ` (${err.details.map((d) => `${d.field} ${d.message}`).join('; ')})` : '';

// One compiled validator per schema: tools are registered per request, their schemas are not.
const validators = new WeakMap<TSchema, ReturnType<typeof validatorCompiler>>();

/**
 * Checks a tool's arguments against the JSON route's own TypeBox schema (same validator, same
 * defaults, same `validation_error` details), so a limit lives in one place whichever edge is used.
 */
export function checked<T extends TSchema>(schema: T, value: unknown): Static<T> {
  let validate = validators.get(schema);
  if (!validate) {
    validate = validatorCompiler({ schema, httpPart: 'body' });
    validators.set(schema, validate);
  }
  // Drop absent optionals: MCP clients send `undefined`-free JSON, but zod may hand them back.
  const copy = JSON.parse(JSON.stringify(value ?? {}));
  if (!validate(copy))
    throw new AppError(
      'validation_error',
      'The tool arguments are invalid.',
      toDetails(validate.errors ?? [], 'arguments'),
    );
  return copy as Static<T>;
}

/** Any object: `additionalProperties: true` said outright (an empty `{}` schema is not portable). */
const anyObject = () => z.looseObject({}).meta({ additionalProperties: true });

/** The JSON type of a schema (TypeBox's, or JSON Schema from zod) as zod, one level deep; null for a union. */
function shallowOf(schema: JsonShape): z.ZodType | null {
  if (schema.type === 'object') return anyObject();
  if (schema.type === 'array') {
    const items = schema.items ? shallowOf(schema.items) : null;
    return items ? z.array(items) : null;
  }
  if (schema.type === 'string') return z.string();
  if (schema.type === 'integer' || schema.type === 'number') return z.number();
  if (schema.type === 'boolean') return z.boolean();
  return null;
}

interface JsonShape {
  type?: unknown;
  items?: JsonShape;
  properties?: Record<string, JsonShape>;
}

/**
 * A tool's `outputSchema`: the success shape's top-level fields with their JSON types (nested
 * values as any object, a nullable field left to `additionalProperties`), all optional because an
 * `isError` result carries `{code, message, details?}` in their place (the server's instructions
 * say so once, instead of every tool's schema).
 * One level deep on purpose: the full shapes made `tools/list` 100 KB of output schemas that a
 * client puts in its model's context; the tool descriptions and the API's OpenAPI document
 * describe the fields. No `type` arrays and no empty schemas, so every client can read it.
 */
export function output(shape: TObject | z.ZodObject, more: z.ZodRawShape = {}): z.ZodObject {
  const json: JsonShape = shape instanceof z.ZodObject ? (z.toJSONSchema(shape) as JsonShape) : shape;
  const fields: Record<string, z.ZodType> = {};
  for (const [key, value] of Object.entries(json.properties ?? {})) {
    const field = shallowOf(value);
    if (field) fields[key] = field.optional();
  }
  return z.looseObject({ ...fields, ...more }).meta({ additionalProperties: true, $schema: undefined });
}

/** An id argument, described for an agent. */
export const id = (what: string) => z.string().min(1).max(100).describe(what);

/**
 * The server as tools register on it, each tool's input schema an object schema without `$schema`
 * (the SDK would repeat the draft's URL in every tool of `tools/list`, which a client puts in its
 * model's context). Arguments are checked exactly as before: the same fields, unknown ones dropped.
 */
export function portableTools(server: McpServer): McpServer {
  return new Proxy(server, {
    get(target, prop) {
      if (prop === 'registerTool') {
        return (name: string, config: { inputSchema?: z.ZodRawShape }, handler: unknown) =>
          (target.registerTool as (n: string, c: object, h: unknown) => unknown)(
            name,
            config.inputSchema
              ? { ...config, inputSchema: z.object(config.inputSchema).meta({ $schema: undefined }) }
              : config,
            handler,
          );
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
