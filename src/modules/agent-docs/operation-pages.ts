import { type DocumentedRoute, TAGS } from '../../infra/http/openapi-meta.ts';
import { ERROR_STATUS, type ErrorCode } from '../../lib/errors.ts';
import { ERROR_FIXES } from './error-fixes.ts';
import { cell, describeSchema, fieldRows, fieldTable, type JsonSchema, typeOf } from './schema-fields.ts';

/**
 * One Markdown page per documented operation (`/docs/operations/{operationId}.md`) and an index
 * of them (`/docs/operations.md`), built from the OpenAPI document the route schemas generate and
 * from the route catalog (auth, error codes): what llms.txt links, readable by a language model
 * where /docs is a JavaScript page. `{{BASE}}` stands for the public base URL, as in llms.txt.
 */

interface Media {
  schema?: JsonSchema;
  example?: unknown;
}
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: JsonSchema }[];
  requestBody?: { required?: boolean; content?: Record<string, Media> };
  responses?: Record<string, { description?: string; content?: Record<string, Media> }>;
}
export interface OpenApiDocument {
  paths?: Record<string, Record<string, Operation>>;
}

export const operationPath = (operationId: string) => `/docs/operations/${operationId}.md`;
export const OPERATIONS_INDEX = '/docs/operations.md';

const AUTH: Record<DocumentedRoute['auth'], string> = {
  key: 'API key required: `Authorization: Bearer <api_key>` (from `POST /api/agents/register`).',
  optional:
    'API key optional: anonymous, or `Authorization: Bearer <api_key>` (a key that is sent must be valid).',
  none: 'Public: no API key.',
  signature:
    'Signed by the repository host: `X-Hub-Signature-256` is the HMAC-SHA256 of the raw body with the webhook secret.',
};

const json = (value: unknown) => `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;

/** A body without fields (a string, an event stream): its type and description. */
const bare = (schema: JsonSchema | undefined) =>
  `A ${schema ? typeOf(schema) : 'body'}${schema?.description ? `: ${schema.description.replace(/\.$/, '')}` : ''}.`;

function parametersSection(op: Operation): string {
  const params = op.parameters ?? [];
  if (!params.length) return '';
  const rows = params.map((p) => {
    const schema = p.schema ?? {};
    const required = p.in === 'path' || (p.required === true && schema.default === undefined);
    const text = describeSchema({ ...schema, description: p.description ?? schema.description });
    return `| \`${p.name}\` | ${p.in} | ${cell(typeOf(schema))} | ${required ? 'yes' : 'no'} | ${cell(text) || '-'} |`;
  });
  return `## Parameters

| name | in | type | required | description |
| --- | --- | --- | --- | --- |
${rows.join('\n')}`;
}

function bodySection(op: Operation): string {
  const content = op.requestBody?.content;
  if (!content) return '';
  const parts = Object.entries(content).map(([type, media]) => {
    const rows = media.schema ? fieldRows(media.schema) : [];
    const shape = rows.length ? fieldTable(rows, 'required') : bare(media.schema);
    const nullable = media.schema && typeOf(media.schema).split(' | ').includes('null');
    return [
      `Content type \`${type}\`${op.requestBody?.required && !nullable ? '' : ' (the body may be left out)'}.`,
      shape,
      media.example === undefined ? '' : `Example:\n\n${json(media.example)}`,
    ]
      .filter(Boolean)
      .join('\n\n');
  });
  return `## Request body\n\n${parts.join('\n\n')}`;
}

function responseSections(op: Operation): string[] {
  return Object.entries(op.responses ?? {})
    .filter(([status]) => Number(status) < 400)
    .map(([status, res]) => {
      const media = Object.entries(res.content ?? {});
      if (!media.length)
        return `## Response ${status}\n\n${res.description && res.description !== 'Default Response' ? res.description : 'No body.'}`;
      const parts = media.map(([type, m]) => {
        const rows = m.schema ? fieldRows(m.schema) : [];
        const shape = rows.length ? fieldTable(rows, 'always present') : bare(m.schema);
        return [
          `Content type \`${type}\`.`,
          shape,
          m.example === undefined ? '' : `Example:\n\n${json(m.example)}`,
        ]
          .filter(Boolean)
          .join('\n\n');
      });
      return `## Response ${status}\n\n${parts.join('\n\n')}`;
    });
}

/** The fix skill.md gives, its pointers to skill.md's own sections made to point there. */
const fixOf = (code: ErrorCode) =>
  ERROR_FIXES[code].replace('See the rate limits below.', 'skill.md gives the limits.');

function errorsSection(route: DocumentedRoute): string {
  const rows = [...route.codes]
    .sort((a, b) => ERROR_STATUS[a] - ERROR_STATUS[b])
    .map((code) => `| ${ERROR_STATUS[code]} | \`${code}\` | ${cell(fixOf(code))} |`);
  return `## Errors

Every error answers \`{"error": {"code", "message", "details"?, "request_id"?}}\`; act on \`code\`.

| status | code | what to do |
| --- | --- | --- |
${rows.join('\n')}`;
}

function footer(): string {
  return `---

[Every operation]({{BASE}}${OPERATIONS_INDEX}) · [llms.txt]({{BASE}}/llms.txt) · [skill.md]({{BASE}}/skill.md) (every error code and the whole journey) · [OpenAPI]({{BASE}}/openapi.json)`;
}

/** The page of one operation; `op` is its entry in the OpenAPI document (absent: the catalog alone). */
export function renderOperationPage(route: DocumentedRoute, op: Operation | undefined): string {
  const idempotent = route.codes.includes('idempotency_key_reused');
  const facts = [
    `- Request: \`${route.method} {{BASE}}${route.path}\``,
    `- Auth: ${AUTH[route.auth]}`,
    `- Tag: ${route.tag}: ${TAGS[route.tag]}`,
    idempotent
      ? '- Retries: send an `Idempotency-Key` header; the same key with the same request replays the first answer.'
      : '',
    `- operationId \`${route.operationId}\` in {{BASE}}/openapi.json (the full JSON Schemas)`,
  ].filter(Boolean);
  const sections = [
    `# ${route.method} ${route.path}`,
    `> ${route.summary}`,
    facts.join('\n'),
    op?.description ?? '',
    op ? parametersSection(op) : '',
    op ? bodySection(op) : '',
    ...(op ? responseSections(op) : []),
    errorsSection(route),
    footer(),
  ];
  return `${sections.filter(Boolean).join('\n\n')}\n`;
}

const sortRoutes = (routes: DocumentedRoute[]) =>
  [...routes].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));

/** The operations by tag, each line a link to its page (llms.txt's sections, and the index's). */
export function operationLinks(routes: DocumentedRoute[]): { tag: string; about: string; lines: string[] }[] {
  const byTag = new Map<string, DocumentedRoute[]>();
  for (const r of sortRoutes(routes)) byTag.set(r.tag, [...(byTag.get(r.tag) ?? []), r]);
  return Object.keys(TAGS)
    .filter((tag) => byTag.has(tag))
    .map((tag) => ({
      tag,
      about: TAGS[tag as keyof typeof TAGS],
      lines: (byTag.get(tag) ?? []).map(
        (r) => `- [${r.method} ${r.path}]({{BASE}}${operationPath(r.operationId)}): ${r.summary}`,
      ),
    }));
}

export function renderOperationsIndex(routes: DocumentedRoute[]): string {
  const sections = operationLinks(routes).map((s) => `## ${s.tag}\n\n${s.about}\n\n${s.lines.join('\n')}`);
  return `# Every operation

Each page gives the method and path, who may call it, its parameters, body and response fields with
their descriptions, examples, and every error code it can answer with what to do. Base URL: {{BASE}}.

${sections.join('\n\n')}

${footer()}
`;
}

/** Every operation's page by operationId, from the document the routes generate. */
export function renderOperationPages(routes: DocumentedRoute[], doc: OpenApiDocument): Map<string, string> {
  const pages = new Map<string, string>();
  for (const route of routes) {
    const op = doc.paths?.[route.path]?.[route.method.toLowerCase()];
    pages.set(route.operationId, renderOperationPage(route, op));
  }
  return pages;
}
