import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type {
  CallToolResult,
  ServerNotification,
  ServerRequest,
  ToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Static, TObject, TProperties, TSchema } from 'typebox';
import * as z from 'zod';
import type { Services } from '../compose.ts';
import type { AuthAgent } from '../infra/http/auth.ts';
import { IdParams } from '../infra/http/schemas.ts';
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

/**
 * A path's id under the tool's own argument name (`bounty_id` where the route says `id`): the
 * route's own field, described for an agent (the route's path says what it is by its place).
 */
export const id = (what: string) =>
  ({ ...IdParams.properties.id, description: what }) as typeof IdParams.properties.id;

/** A tool as it registers: its arguments are an object of the routes' own TypeBox fields. */
export interface ToolConfig<T extends TObject> {
  title: string;
  description: string;
  /** Built from the route's body, query and path schemas; tools/list shows it, `checked` holds to it. */
  inputSchema: T;
  outputSchema: z.ZodObject;
  annotations: ToolAnnotations;
}

/** Where tools register; a tool's body gets its arguments checked and answers with its result. */
export interface ToolServer {
  registerTool<T extends TObject>(
    name: string,
    config: ToolConfig<T>,
    body: (args: Static<T>, extra: ToolExtra) => Promise<object>,
  ): void;
}

/**
 * The server as tools register on it. A tool's TypeBox arguments are listed for the SDK as a zod
 * object whose JSON Schema is theirs (`listed`), and that accepts any value of each named field:
 * the arguments are checked once, by `checked`, against the same TypeBox schema, so a bad one is
 * the `validation_error` the JSON route gives, with its details. Unknown arguments are dropped, as
 * they always were. Each body runs inside `run`.
 */
export function portableTools(server: McpServer, ctx: ToolContext): ToolServer {
  return {
    registerTool(name, { inputSchema, ...config }, body) {
      server.registerTool(name, { ...config, inputSchema: forSdk(inputSchema) }, (args, extra) =>
        run(ctx, () => body(checked(inputSchema, args), extra)),
      );
    },
  };
}

const sdkInputs = new WeakMap<TObject, z.ZodObject>();

/** The SDK's view of a tool's arguments: each named field taken as it comes, listed as the route has it. */
function forSdk(schema: TObject): z.ZodObject {
  let sdkInput = sdkInputs.get(schema);
  if (!sdkInput) {
    const fields = Object.keys(schema.properties).map((key) => [key, z.unknown().optional()]);
    sdkInput = z.object(Object.fromEntries(fields)).meta({ $schema: undefined, ...listed(schema) });
    sdkInputs.set(schema, sdkInput);
  }
  return sdkInput;
}

/**
 * What tools/list says of a tool's arguments: the route's fields with their constraints and
 * descriptions, as the OpenAPI document has them, less what is not for a caller: OpenAPI examples,
 * `required` on a field with a default (the validator fills it in), `additionalProperties: false`
 * (an unknown argument is dropped, not refused), `$schema` (the SDK would repeat it per tool).
 */
function listed(schema: TObject): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema.properties)) {
    const { examples: _examples, ...rest } = JSON.parse(JSON.stringify(field)) as Record<string, unknown>;
    // An enum says its type too, as zod's did: some clients want a type on every field.
    const typed = Array.isArray(rest.enum) && rest.enum.every((v) => typeof v === 'string');
    properties[key] = typed && !rest.type ? { type: 'string', ...rest } : rest;
  }
  const required = (schema.required ?? []).filter((key) => !('default' in (schema.properties[key] ?? {})));
  return { properties, ...(required.length > 0 ? { required } : {}) };
}

/**
 * A route's fields, those named without their descriptions: for an argument whose use the tool's
 * own description already tells (tools/list goes whole into a model's context). Constraints stay.
 */
export function toldByTool<P extends TProperties>(properties: P, ...keys: (keyof P & string)[]): P {
  const fields: TProperties = { ...properties };
  for (const key of keys) {
    // A copy with every property, the non-enumerable optional mark included.
    const field = Object.defineProperties({}, Object.getOwnPropertyDescriptors(properties[key]));
    delete (field as { description?: string }).description;
    fields[key] = field as TSchema;
  }
  return fields as P;
}
