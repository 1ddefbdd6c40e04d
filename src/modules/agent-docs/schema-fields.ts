import { OPTIONAL_VISIBLE_TEXT_PATTERN, PLAIN_TEXT_PATTERN, VISIBLE_TEXT_PATTERN } from '../../lib/text.ts';
/**
 * JSON Schemas (as the OpenAPI document carries the route schemas) read as rows of a Markdown
 * table: one row per field, nested fields by dotted path (`bounty.submissions[].pr_url`), with
 * their type, whether the caller must send (or can count on) them, and their description and limits.
 */

export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  pattern?: string;
}

export interface FieldRow {
  name: string;
  type: string;
  required: boolean;
  description: string;
}

/** Deeper than this, a field's shape is left to /openapi.json. */
const MAX_DEPTH = 5;

const variants = (s: JsonSchema): JsonSchema[] => s.anyOf ?? s.oneOf ?? [s];

const typesOf = (s: JsonSchema): string[] =>
  Array.isArray(s.type)
    ? s.type
    : s.type
      ? [s.type]
      : s.enum
        ? ['enum']
        : s.const !== undefined
          ? ['const']
          : [];

/** One type word for a schema: `string (date-time)`, `"a" \| "b"`, `array of string`, `integer \| null`. */
export function typeOf(schema: JsonSchema): string {
  const words = new Set<string>();
  for (const v of variants(schema)) {
    for (const t of typesOf(v)) {
      if (t === 'enum') words.add((v.enum ?? []).map((e) => JSON.stringify(e)).join(' | '));
      else if (t === 'const') words.add(JSON.stringify(v.const));
      else if (t === 'array') words.add(`array of ${v.items ? typeOf(v.items) : 'any'}`);
      else if (t === 'string' && v.format) words.add(`string (${v.format})`);
      else words.add(t);
    }
  }
  return words.size ? [...words].join(' | ') : 'any';
}

const range = (min: number | undefined, max: number | undefined, unit: string): string[] =>
  min !== undefined && max !== undefined
    ? [`${min} to ${max}${unit}`]
    : min !== undefined
      ? [`at least ${min}${unit}`]
      : max !== undefined
        ? [`at most ${max}${unit}`]
        : [];

/** Patterns of the shared text rules, said in words rather than as a regex. */
const PATTERN_WORDS = new Map([
  [PLAIN_TEXT_PATTERN, 'no control or bidi-override characters'],
  [VISIBLE_TEXT_PATTERN, 'at least one visible character'],
  [OPTIONAL_VISIBLE_TEXT_PATTERN, 'empty, or at least one visible character'],
]);

/** The limits a caller must respect, said in a few words. */
function limits(s: JsonSchema): string[] {
  const out: string[] = [];
  for (const v of variants(s)) {
    out.push(...range(v.minLength || undefined, v.maxLength, ' characters'));
    out.push(...range(v.minimum, v.maximum, ''));
    if (v.maxItems !== undefined) out.push(`at most ${v.maxItems} items`);
    if (v.pattern !== undefined) out.push(PATTERN_WORDS.get(v.pattern) ?? `pattern \`${v.pattern}\``);
  }
  if (s.default !== undefined) out.push(`default ${JSON.stringify(s.default)}`);
  return out;
}

function describe(s: JsonSchema): string {
  const text = s.description ?? variants(s).find((v) => v.description)?.description ?? '';
  const extra = limits(s);
  return [text, extra.length ? `(${extra.join('; ')})` : ''].filter(Boolean).join(' ');
}

/** The object members of a schema (an object, or an object-or-null union), merged. */
function objectParts(
  s: JsonSchema,
): { properties: Record<string, JsonSchema>; required: Set<string> } | null {
  const objects = variants(s).filter((v) => v.properties);
  if (!objects.length) return null;
  const properties: Record<string, JsonSchema> = {};
  const required = new Set<string>();
  for (const o of objects) {
    Object.assign(properties, o.properties);
    for (const r of o.required ?? []) required.add(r);
  }
  return { properties, required };
}

/** Every field of an object schema, nested ones included, in the document's order. */
export function fieldRows(schema: JsonSchema, prefix = '', depth = 0): FieldRow[] {
  const parts = objectParts(schema);
  if (!parts || depth > MAX_DEPTH) return [];
  const rows: FieldRow[] = [];
  for (const [key, field] of Object.entries(parts.properties)) {
    const name = `${prefix}${key}`;
    rows.push({
      name,
      type: typeOf(field),
      // A field with a default need not be sent.
      required: parts.required.has(key) && field.default === undefined,
      description: describe(field),
    });
    rows.push(...fieldRows(field, `${name}.`, depth + 1));
    const items = variants(field).find((v) => v.items)?.items;
    if (items) rows.push(...fieldRows(items, `${name}[].`, depth + 1));
  }
  return rows;
}

/** A table cell: one line, pipes escaped. */
export const cell = (text: string) => text.replace(/\s*\n\s*/g, ' ').replaceAll('|', '\\|');

/** Rows as a Markdown table; `requiredWord` says what required means here (sent, or always present). */
export function fieldTable(rows: FieldRow[], requiredWord: string): string {
  return [
    `| field | type | ${requiredWord} | description |`,
    '| --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| \`${r.name}\` | ${cell(r.type)} | ${r.required ? 'yes' : 'no'} | ${cell(r.description) || '-'} |`,
    ),
  ].join('\n');
}

export { describe as describeSchema };
