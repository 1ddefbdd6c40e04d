import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

/**
 * GitHub's published OpenAPI description (npm @octokit/openapi, api.github.com) as a validator of
 * response and webhook bodies: the schema GitHub documents for an operation's status code, with
 * every `$ref` resolved inside the whole description. Validation is full JSON Schema (required
 * properties, types, enums, nullability, formats), not a field list. The same description makes a
 * fake GitHub (`startOpenApiGithub`): answers built from its documented examples (`githubExample`)
 * and refused unless they match its schemas.
 */
type Json = Record<string, unknown>;

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const DOC_ID = 'github-openapi';

let cached: { doc: Json; ajv: Ajv } | null = null;

function load(): { doc: Json; ajv: Ajv } {
  if (cached) return cached;
  const path = createRequire(import.meta.url).resolve('@octokit/openapi/generated/api.github.com.json');
  const doc = JSON.parse(readFileSync(path, 'utf8')) as Json;
  openApiNullable(doc);
  // OpenAPI 3.0 schemas: `nullable` is understood by Ajv; `example`, `x-*` and friends are not
  // JSON Schema keywords, hence strict off. The description itself is trusted, not meta-validated.
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  for (const f of ['int32', 'int64', 'uri-template', 'repo.nwo', 'ssh-key', 'ssh-key fingerprint'])
    ajv.addFormat(f, true);
  ajv.addSchema(doc, DOC_ID);
  cached = { doc, ajv };
  return cached;
}

const pointer = (doc: Json, ref: string): Json => {
  let node: unknown = doc;
  for (const part of ref.replace(/^#\//, '').split('/'))
    node = (node as Json)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  if (node === undefined) throw new Error(`unresolved ${ref}`);
  return node as Json;
};

/** Local refs of a schema taken out of the description point back into the description. */
const rebase = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(rebase);
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node).map(([k, v]) => [
      k,
      k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `${DOC_ID}${v}` : rebase(v),
    ]),
  );
};

/**
 * `nullable` as OpenAPI 3.0 means it, where Ajv reads it otherwise: a nullable enum (the
 * `conclusion` of a check run still in progress) takes null, which Ajv's `enum` refuses unless it
 * is listed; a nullable schema without `type` (`allOf`/`anyOf` of refs, as in some webhooks), which
 * Ajv refuses to compile, becomes `anyOf: [schema, null]`. Changes the description in place.
 */
function openApiNullable(node: unknown): void {
  if (typeof node !== 'object' || node === null) return;
  for (const v of Object.values(node)) openApiNullable(v);
  if (Array.isArray(node)) return;
  const o = node as Json;
  if (o.nullable !== true) return;
  if (Array.isArray(o.enum) && !o.enum.includes(null)) o.enum = [...o.enum, null];
  if (o.type !== undefined) return;
  const { nullable: _, ...schema } = o;
  for (const k of Object.keys(o)) delete o[k];
  o.anyOf = [schema, { type: 'null' }];
}

const validators = new Map<string, ValidateFunction>();

function compile(key: string, schema: () => unknown): ValidateFunction {
  let v = validators.get(key);
  if (!v) {
    v = load().ajv.compile(rebase(schema()) as Json);
    validators.set(key, v);
  }
  return v;
}

function check(v: ValidateFunction, body: unknown, what: string): void {
  if (!v(body)) {
    const { ajv } = load();
    throw new Error(`${what} does not match GitHub's OpenAPI description: ${ajv.errorsText(v.errors)}`);
  }
}

/** The JSON schema GitHub documents for `method path` answering `status`. */
export function responseSchema(path: string, method: string, status: number): Json {
  const { doc } = load();
  const op = (doc.paths as Record<string, Record<string, Json>>)[path]?.[method.toLowerCase()];
  if (!op) throw new Error(`no operation ${method} ${path} in the description`);
  let res = (op.responses as Record<string, Json>)[String(status)];
  if (!res) throw new Error(`${method} ${path} documents no ${status} response`);
  if (typeof res.$ref === 'string') res = pointer(doc, res.$ref);
  const schema = (res.content as Record<string, { schema: Json }> | undefined)?.['application/json']?.schema;
  if (!schema) throw new Error(`${method} ${path} ${status} has no JSON body`);
  return schema;
}

/** Throws unless the body matches what GitHub documents for `method path` answering `status`. */
export function expectGithubResponse(path: string, method: string, status: number, body: unknown): void {
  const v = compile(`${method} ${path} ${status}`, () => responseSchema(path, method, status));
  check(v, body, `${method} ${path} ${status}`);
}

/** Throws unless the body matches GitHub's schema for the webhook, e.g. `pull-request-closed`. */
export function expectGithubWebhook(name: string, body: unknown): void {
  const v = compile(`webhook ${name}`, () => {
    const hooks = load().doc['x-webhooks'] as Record<string, { post: Json }>;
    const post = hooks[name]?.post;
    if (!post) throw new Error(`no webhook ${name} in the description`);
    return (post.requestBody as { content: Record<string, { schema: Json }> }).content['application/json']
      ?.schema;
  });
  check(v, body, `webhook ${name}`);
}

/** GitHub's documented example answer of `method path` with `status` (a copy to change at will). */
export function githubExample(path: string, method: string, status = 200): unknown {
  const { doc } = load();
  const op = (doc.paths as Record<string, Record<string, Json>>)[path]?.[method.toLowerCase()];
  let res = (op?.responses as Record<string, Json> | undefined)?.[String(status)];
  if (res && typeof res.$ref === 'string') res = pointer(doc, res.$ref);
  const examples = (res?.content as Record<string, { examples?: Record<string, Json> }> | undefined)?.[
    'application/json'
  ]?.examples;
  let example = examples?.default ?? Object.values(examples ?? {})[0];
  if (example && typeof example.$ref === 'string') example = pointer(doc, example.$ref);
  if (!example || !('value' in example)) throw new Error(`${method} ${path} ${status} has no example`);
  return structuredClone(example.value);
}

/** What a route of the fake answers: a status and a body GitHub would send for it. */
export interface FakeAnswer {
  status: number;
  body?: unknown;
}

export interface FakeRoute {
  method: string;
  /** The operation's path as GitHub's description names it: `/repos/{owner}/{repo}/pulls/{pull_number}`. */
  path: string;
  answer: (params: Record<string, string>, query: URLSearchParams) => FakeAnswer;
}

export interface OpenApiGithub {
  /** The REST base, Octokit's `baseUrl`. */
  apiUrl: string;
  /** Every request, as `METHOD /path?query`. */
  requests: string[];
  /** Answers that did not match GitHub's description (the fake sent 500 instead): should stay empty. */
  problems: string[];
  close(): Promise<void>;
}

const BASIC_ERROR = '#/components/schemas/basic-error';
const NOT_FOUND = { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' };

/** The schema of an operation's answer, or `basic-error` for an error status it does not document. */
function schemaFor(op: FakeRoute | null, status: number): ValidateFunction {
  const basicError = () => compile(BASIC_ERROR, () => ({ $ref: `${DOC_ID}${BASIC_ERROR}` }));
  if (!op) return basicError();
  try {
    return compile(`${op.method} ${op.path} ${status}`, () => responseSchema(op.path, op.method, status));
  } catch (err) {
    if (status < 400) throw err;
    return basicError();
  }
}

/**
 * A fake GitHub REST API over HTTP whose every answer is checked against GitHub's OpenAPI
 * description before it leaves: the body the operation documents for that status, or GitHub's
 * `basic-error` for an error status it does not list (a 404 of a host without an API). Routes
 * name operations by their documented path; bodies are best built from `githubExample`. A request
 * no route takes is a 404, as GitHub answers.
 */
export async function startOpenApiGithub(routes: FakeRoute[]): Promise<OpenApiGithub> {
  const matchers = routes.map((r) => ({
    ...r,
    names: [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string),
    regex: new RegExp(`^${r.path.replace(/\{\w+\}/g, '([^/]+)')}$`),
  }));
  const requests: string[] = [];
  const problems: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    let answer: FakeAnswer = { status: 404, body: NOT_FOUND };
    let operation: FakeRoute | null = null;
    for (const m of matchers) {
      const found = m.method.toUpperCase() === req.method ? m.regex.exec(url.pathname) : null;
      if (!found) continue;
      const params = Object.fromEntries(m.names.map((n, i) => [n, decodeURIComponent(found[i + 1] ?? '')]));
      answer = m.answer(params, url.searchParams);
      operation = m;
      break;
    }
    try {
      if (answer.body !== undefined)
        check(schemaFor(operation, answer.status), answer.body, `${req.method} ${url.pathname}`);
    } catch (err) {
      problems.push(String(err));
      answer = { status: 500, body: { message: String(err) } };
    }
    const body = answer.body === undefined ? '' : JSON.stringify(answer.body);
    res.writeHead(answer.status, body ? { 'content-type': 'application/json; charset=utf-8' } : {});
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiUrl: `http://127.0.0.1:${port}`,
    requests,
    problems,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
