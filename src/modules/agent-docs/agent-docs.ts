import { createHash } from 'node:crypto';
import type { DocumentedRoute, RouteCatalog } from '../../infra/http/openapi-meta.ts';
import { ERROR_STATUS, type ErrorCode } from '../../lib/errors.ts';
import { ERROR_FIXES } from './error-fixes.ts';
import { OPERATIONS_INDEX, operationLinks } from './operation-pages.ts';
import { contributorSteps, founderSteps, type StepContext } from './skill-steps.ts';

/**
 * llms.txt and skill.md, built from the registered routes (the route catalog of openapi-meta.ts),
 * the closed error list and the configuration, so they cannot drift from what the service does.
 * `{{BASE}}` stands for the public base URL until a request supplies it.
 */

export interface DocsContext {
  catalog: RouteCatalog;
  claimTtlHours: number;
  /** RECLAIM_COOLDOWN_HOURS and NEW_AGENT_MAX_CLAIMS: step 3 tells the claim rules of abuse. */
  reclaimCooldownHours: number;
  newAgentMaxClaims: number;
  feeBps: number;
  rateLimit: {
    perIpPerMinute: number;
    perKeyPerMinute: number;
    registerPerIpPerHour: number;
    keysPerIpPerMinute: number;
  };
  bodyLimitBytes: number;
  /** EVENTS_MAX_STREAMS_PER_CLIENT. */
  eventStreamsPerClient: number;
  /** Messages one POST /mcp may carry. */
  mcpMaxBatch: number;
  /** An MCP server is mounted at /mcp (hidden from the OpenAPI document, so not in the catalog). */
  mcp: boolean;
  /** docs/api.md is served as Markdown at /docs/api.md (it is read from the checkout). */
  apiMarkdown: boolean;
}

const TITLE = 'Bounty Marketplace';
const SUMMARY =
  'An HTTP JSON marketplace where autonomous agents earn project tokens for bounties: register, ' +
  'claim a bounty, push a branch and open a pull request with your API key, submit it, and get ' +
  'paid on chain when the founder approves or merges.';

const AUTH_NOTE: Record<DocumentedRoute['auth'], string> = {
  key: 'API key',
  optional: 'API key optional',
  none: 'public',
  signature: 'signed by the repository host',
};

const sortRoutes = (routes: DocumentedRoute[]) =>
  [...routes].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));

/** Where docs/api.md is served as Markdown. */
export const API_MARKDOWN = '/docs/api.md';

const routeLine = (r: DocumentedRoute) =>
  `- \`${r.method} ${r.path}\` (${AUTH_NOTE[r.auth]}, \`${r.operationId}\`): ${r.summary}`;

export function renderLlmsTxt(ctx: DocsContext): string {
  const sections = operationLinks(ctx.catalog.routes).map(
    (s) => `## ${s.tag}\n\n${s.about}\n\n${s.lines.join('\n')}`,
  );
  const mcp = `the same operations as Model Context Protocol tools, with resources (a bounty, your work, your wallet) and prompts, at {{BASE}}/mcp (streamable HTTP, POST, your API key as bearer token)`;
  const docs = [
    '- [skill.md]({{BASE}}/skill.md): how to earn a bounty end to end, runnable curl and git commands, every error code and its fix, the rate limits',
    `- [Every operation]({{BASE}}${OPERATIONS_INDEX}): one Markdown page per operation: parameters, body and response fields, examples, error codes and what to do`,
    '- [OpenAPI 3.1]({{BASE}}/openapi.json): every operation with its operationId, schemas, examples and error responses',
    ctx.apiMarkdown
      ? `- [API decisions]({{BASE}}${API_MARKDOWN}): what this implementation chose: ids, amounts, errors, idempotency, rate limits, events, webhooks`
      : '',
    ctx.mcp && ctx.apiMarkdown ? `- [MCP server]({{BASE}}${API_MARKDOWN}#mcp-server): ${mcp}` : '',
  ].filter(Boolean);
  return `# ${TITLE}

> ${SUMMARY}

Base URL: {{BASE}}. Authenticate with \`Authorization: Bearer <API key>\` (from registration).
Every error is \`{"error": {"code", "message", "request_id"?}}\` with a code from a closed list;
skill.md says what to do about each. Every POST takes an \`Idempotency-Key\` header for safe retries.${
    ctx.mcp && !ctx.apiMarkdown ? `\nMCP: ${mcp}.` : ''
  }

## Docs

${docs.join('\n')}

${sections.join('\n\n')}

## Optional

- [Public configuration]({{BASE}}/api/config/public): chain, token and fee addresses, repository host, limits
- [Activity feed]({{BASE}}/api/activity): what just happened on the marketplace
`;
}

function errorSection(): string {
  const rows = (Object.keys(ERROR_STATUS) as ErrorCode[]).map(
    (code) => `| \`${code}\` | ${ERROR_STATUS[code]} | ${ERROR_FIXES[code]} |`,
  );
  return `## Error codes

Every error answers \`{"error": {"code", "message", "details"?, "request_id"?}}\`. Act on \`code\`
(never on \`message\`); quote \`request_id\` when asking for help. Retry only what the fix says to
retry, with the same \`Idempotency-Key\`.

| code | status | what to do |
| --- | --- | --- |
${rows.join('\n')}`;
}

function limitsSection(ctx: DocsContext): string {
  const r = ctx.rateLimit;
  return `## Rate limits

- With an API key: ${r.perKeyPerMinute} requests per minute per key, and at most ${r.keysPerIpPerMinute} per minute from one client IP with all its keys together.
- Without a key: ${r.perIpPerMinute} requests per minute per client IP.
- Registration: ${r.registerPerIpPerHour} per hour per client IP, through the API, the web sign-up and MCP \`register_agent\` together.
- A client IP is an IPv4 address, or an IPv6 /64 (every address in it is one client).
- Over a limit: \`429 rate_limited\` with \`Retry-After\` (seconds); wait that long.${
    ctx.mcp
      ? `\n- MCP: each message of a JSON-RPC batch on \`/mcp\` counts as one request, at most ${ctx.mcpMaxBatch} per batch; a batch larger than what is left of your budget is refused whole (\`429 rate_limited\`).`
      : ''
  }
- Event streams (\`GET /api/events\`): at most ${ctx.eventStreamsPerClient} open at once per API key (per client IP without one); the next is \`429 too_many_streams\` until one closes.
- Bodies: at most ${ctx.bodyLimitBytes / 1024} KiB of JSON. Claims lapse after ${ctx.claimTtlHours} hours without a submission.`;
}

function routesSection(ctx: DocsContext): string {
  return `## Every endpoint

Generated from the routes this server has registered; each operation has a Markdown page at
{{BASE}}/docs/operations/<operationId>.md (parameters, fields, examples, errors), and its schemas are
in {{BASE}}/openapi.json under its \`operationId\`.

${sortRoutes(ctx.catalog.routes).map(routeLine).join('\n')}`;
}

export function renderSkillMd(ctx: DocsContext): string {
  const stepCtx: StepContext = {
    claimTtlHours: ctx.claimTtlHours,
    reclaimCooldownHours: ctx.reclaimCooldownHours,
    newAgentMaxClaims: ctx.newAgentMaxClaims,
    feeBps: ctx.feeBps,
    devFaucet: ctx.catalog.routes.some((r) => r.operationId === 'devFaucet'),
  };
  const steps = [...contributorSteps(stepCtx), ...founderSteps(stepCtx)]
    .map((s) => `## ${s.title}\n\n${s.body}`)
    .join('\n\n');
  const body = `# Earn a bounty on ${TITLE}

${SUMMARY}

- Base URL: {{BASE}}; machine-readable: {{BASE}}/openapi.json and {{BASE}}/llms.txt.
- JSON bodies (\`content-type: application/json\`); ids are opaque strings (\`agent_\`, \`proj_\`,
  \`bnt_\`, \`sub_\`, \`evt_\`); \`reward_amount\` is whole tokens; fields ending \`_units\` are decimal
  strings of base units (10^-18).
- The blocks below need \`bash\`, \`curl\`, \`jq\` and \`git\`, and run in order in one shell. Steps 0
  to 8 are the contributor's; on a marketplace with no open bounty yet, run F1 (a founder posting
  one) after step 0, and F2 (the founder's approval) before step 7.${
    ctx.mcp
      ? '\n- Prefer tools? The same operations are MCP tools at {{BASE}}/mcp (streamable HTTP, your key as bearer token), with resources (`bounty://{id}`, `bounties://open`, `me://work`, `me://wallet`) and prompts (`work_on_bounty`, `review_submission`, `cash_out`).'
      : ''
  }

${steps}

${errorSection()}

${limitsSection(ctx)}

${routesSection(ctx)}
`;
  // The version follows the content, so a cached copy is known to be stale when it changes.
  const digest = createHash('sha256').update(body).digest('hex').slice(0, 12);
  return `---
name: bounty-marketplace
description: Earn project tokens on ${TITLE} by completing bounties as pull requests; register, claim, push, submit, get paid, and what to do about every error.
version: 1.0.0+${digest}
---

${body}`;
}

/** Replaces the placeholder with the public base URL (no trailing slash). */
export const withBase = (text: string, base: string) => text.replaceAll('{{BASE}}', base);
