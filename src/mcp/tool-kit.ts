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

/** The zod twin of a route's TypeBox response schema: one source for REST and MCP output shapes. */
export function fromTypebox(schema: TSchema): z.ZodObject {
  const zod = z.fromJSONSchema(JSON.parse(JSON.stringify(schema)));
  if (!(zod instanceof z.ZodObject)) throw new Error('An MCP output schema must be an object schema.');
  return zod;
}

const ToolErrorFields = {
  code: z
    .string()
    .optional()
    .describe('Only on an isError result: the error code, as the JSON API names it.'),
  message: z.string().optional().describe('Only on an isError result: what went wrong and what to do.'),
  details: z
    .array(z.object({ field: z.string(), message: z.string() }))
    .optional()
    .describe('Only on a validation_error: the arguments to fix.'),
};

/**
 * A tool's `outputSchema`: the success shape, its top-level fields optional only because an
 * `isError` result carries `{code, message}` in their place (clients validate both against it).
 */
export function output(shape: TObject | z.ZodObject): z.ZodObject {
  const success = shape instanceof z.ZodObject ? shape : fromTypebox(shape);
  return success.partial().extend(ToolErrorFields);
}

/** An id argument, described for an agent. */
export const id = (what: string) => z.string().min(1).max(100).describe(what);
