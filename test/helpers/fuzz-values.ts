/**
 * Seeded hostile input for the fuzz suites: values shaped by a JSON schema (the OpenAPI document's
 * own), then bent: wrong types, control and bidi characters, surrogate halves, huge strings and
 * numbers, deep nesting. One seed replays a whole run.
 */

/** mulberry32: small, fast and the same on every platform. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    chance: (p: number) => next() < p,
    pick<T>(xs: readonly T[]): T {
      return xs[Math.floor(next() * xs.length)] as T;
    },
  };
}
export type Rng = ReturnType<typeof prng>;

/** Strings that have broken services before: each is a whole value or a part of one. */
export const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0001\u001f\u007f',
  '\u202eevil',
  '\ud800',
  '\udfff lone',
  '😀'.repeat(200),
  '%',
  '%00',
  '%E0%A4%A',
  '../../etc/passwd',
  '/.//evil.example',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '${7*7}{{7*7}}',
  '__proto__',
  'constructor',
  'bmk_0000000000000000000000000000000000000000',
  '0x0000000000000000000000000000000000000000',
  '0xZZZZ',
  '-1',
  '1e309',
  '115792089237316195423570985008687907853269984665640564039457584007913129639936',
  'NaN',
  'null',
  'true',
  'x'.repeat(70_000),
];

const NASTY_NUMBERS = [0, -1, 1, 1.5, -0.0001, 2 ** 31, 2 ** 53 + 2, 1e308, -1e308, Number.MIN_VALUE];

/** JSON nested `depth` deep, as text (a parser that recurses falls over long before 20,000). */
export const deepJson = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

type Schema = Record<string, unknown>;

/** A value of no particular shape. */
export function junk(r: Rng, depth = 0): unknown {
  switch (r.int(8)) {
    case 0:
      return null;
    case 1:
      return r.pick(NASTY_NUMBERS);
    case 2:
      return r.chance(0.5);
    case 3:
      return depth > 3 ? [] : [junk(r, depth + 1), junk(r, depth + 1)];
    case 4:
      return depth > 3 ? {} : { [r.pick(NASTY_STRINGS).slice(0, 20)]: junk(r, depth + 1) };
    default:
      return r.pick(NASTY_STRINGS);
  }
}

/**
 * A value for `schema` ($refs resolved against `root`): mostly of the right shape, so a request
 * gets past the first check and reaches the code behind it, with hostile leaves; sometimes junk.
 */
export function valueFor(r: Rng, schema: Schema | undefined, root: Schema, depth = 0, calm = false): unknown {
  if (!schema || depth > 6) return calm ? null : junk(r, depth);
  const ref = schema.$ref as string | undefined;
  if (ref) return valueFor(r, resolveRef(root, ref), root, depth + 1, calm);
  if (!calm && r.chance(0.12)) return junk(r, depth);
  const alts = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (alts?.length) return valueFor(r, r.pick(alts), root, depth + 1, calm);
  const examples = schema.examples as unknown[] | undefined;
  if (schema.enum && r.chance(0.7)) return r.pick(schema.enum as unknown[]);
  if (schema.const !== undefined && r.chance(0.7)) return schema.const;
  if (examples?.length && r.chance(0.4)) return r.pick(examples);
  const type = Array.isArray(schema.type) ? r.pick(schema.type as string[]) : (schema.type as string);
  switch (type) {
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, Schema>;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(props))
        if (r.chance(0.85)) out[k] = valueFor(r, v, root, depth + 1);
      if (r.chance(0.1)) out[r.pick(NASTY_STRINGS).slice(0, 30)] = junk(r, depth);
      return out;
    }
    case 'array': {
      const n = r.chance(0.1) ? 200 : r.int(3);
      return Array.from({ length: n }, () => valueFor(r, schema.items as Schema, root, depth + 1));
    }
    case 'integer':
    case 'number': {
      const lo = Number(schema.minimum ?? 0);
      const hi = Number(schema.maximum ?? 1000);
      return r.pick([lo, hi, lo - 1, hi + 1, Math.floor((lo + hi) / 2), r.pick(NASTY_NUMBERS)]);
    }
    case 'boolean':
      return r.chance(0.8) ? r.chance(0.5) : 'yes';
    case 'null':
      return null;
    default:
      return stringFor(r, schema);
  }
}

function stringFor(r: Rng, schema: Schema): string {
  const max = Number(schema.maxLength ?? 64);
  switch (r.int(5)) {
    case 0:
      return 'a'.repeat(Math.max(0, Math.min(max + 1, 100_000)));
    case 1:
      return `ok ${r.pick(NASTY_STRINGS).slice(0, 40)} text`;
    case 2:
      return String(r.int(10 ** 6));
    default:
      return r.pick(NASTY_STRINGS);
  }
}

export function resolveRef(root: Schema, ref: string): Schema | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let at: unknown = root;
  for (const part of ref.slice(2).split('/')) at = (at as Record<string, unknown> | undefined)?.[part];
  return at as Schema | undefined;
}

/** Percent-encodes any string, a lone surrogate too (as its three UTF-8 bytes would be, raw: %ED..). */
const encodeSegment = (s: string) =>
  Array.from(s, (c) => {
    const u = c.charCodeAt(0);
    return u >= 0xd800 && u <= 0xdfff && c.length === 1 ? '%ED%A0%80' : encodeURIComponent(c);
  }).join('');

/** A path segment: a real id most of the time, else something no router or database expects. */
export function segmentFor(r: Rng, real: readonly string[]): string {
  if (real.length > 0 && r.chance(0.5)) return encodeURIComponent(r.pick(real));
  return r.pick([
    encodeSegment(r.pick(NASTY_STRINGS).slice(0, 300)),
    '%00',
    '%ZZ',
    '%E0%A4%A',
    '..',
    'bnt_00000000000000000000000000',
    'x'.repeat(5000),
  ]);
}
