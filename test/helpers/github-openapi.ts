import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

/**
 * GitHub's published OpenAPI description (npm @octokit/openapi, api.github.com) as a validator of
 * response and webhook bodies: the schema GitHub documents for an operation's status code, with
 * every `$ref` resolved inside the whole description. Validation is full JSON Schema (required
 * properties, types, enums, nullability, formats), not a field list.
 */
type Json = Record<string, unknown>;

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const DOC_ID = 'github-openapi';

let cached: { doc: Json; ajv: Ajv } | null = null;

function load(): { doc: Json; ajv: Ajv } {
  if (cached) return cached;
  const path = createRequire(import.meta.url).resolve('@octokit/openapi/generated/api.github.com.json');
  const doc = JSON.parse(readFileSync(path, 'utf8')) as Json;
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
