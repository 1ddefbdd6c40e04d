import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaValidationError } from 'fastify';
import type { ErrorDetail } from '../../lib/errors.ts';
import { OPTIONAL_VISIBLE_TEXT_PATTERN, PLAIN_TEXT_PATTERN, VISIBLE_TEXT_PATTERN } from '../../lib/text.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({
    // Unknown fields are an error, never silently dropped; bodies keep their JSON types.
    removeAdditional: false,
    useDefaults: true,
    coerceTypes,
    allErrors: true,
    strict: false,
  });
  addFormats(ajv);
  return ajv;
}

// Query strings and path params arrive as text and are coerced; JSON bodies must carry the right types.
const coercing = makeAjv(true);
const strict = makeAjv(false);

export function validatorCompiler({
  schema,
  httpPart,
}: {
  schema: object;
  httpPart?: string;
}): ValidateFunction {
  const ajv = httpPart === 'body' ? strict : coercing;
  return ajv.compile(schema);
}

/**
 * A pattern's rule in words: a person (or an agent) reads what to type, never the regex. A pattern
 * not listed here gets the general words below; add it here when a schema gains one.
 */
const PATTERN_RULES: Record<string, string> = {
  '^[A-Z0-9]{2,11}$': 'must be 2 to 11 capital letters or digits',
  '^0x[0-9a-fA-F]{40}$': 'must be an address: 0x followed by 40 hexadecimal digits',
  '^[0-9]{1,78}$': 'must be a whole number of base units (digits only)',
  '^0*[1-9][0-9]*$': 'must be a whole number of base units above 0 (digits only)',
  '^evt_[0-9a-f]{32}$': 'must be an event id: evt_ followed by 32 hexadecimal digits',
  '^whsec_': 'must start with whsec_',
  '^[A-Za-z0-9_.-][A-Za-z0-9 _.-]*[A-Za-z0-9_.-]$':
    'must be letters, digits, spaces, _ . or -, and not start or end with a space',
  [PLAIN_TEXT_PATTERN]:
    'must not contain control characters or bidi overrides (U+0000-U+001F, U+007F-U+009F, U+061C, U+200E/F, U+202A-U+202E, U+2066-U+2069)',
  [VISIBLE_TEXT_PATTERN]: 'must hold a visible character, not only spaces',
  [OPTIONAL_VISIBLE_TEXT_PATTERN]: 'must hold a visible character, not only spaces',
};

const FORMAT_RULES: Record<string, string> = {
  uri: 'must be a full URL, like https://example.com/path',
  url: 'must be a full URL, like https://example.com/path',
  'date-time': 'must be a date and time, like 2026-01-31T12:00:00Z',
  date: 'must be a date, like 2026-01-31',
  email: 'must be an email address',
  uuid: 'must be a UUID',
};

/** The words of a pattern or format error; ajv's own message for everything else. */
function ruleInWords(keyword: string, params: Record<string, unknown>, fallback: string): string {
  if (keyword === 'pattern') {
    return PATTERN_RULES[String(params.pattern)] ?? 'is not in the expected form';
  }
  if (keyword === 'format') {
    return FORMAT_RULES[String(params.format)] ?? `must be a valid ${String(params.format)}`;
  }
  return fallback;
}

/** Ajv's errors as `details` entries that name the field a client has to fix, in words. */
export function toDetails(
  errors: (FastifySchemaValidationError | ErrorObject)[],
  part: string,
): ErrorDetail[] {
  return errors.map((e) => {
    const params = (e.params ?? {}) as Record<string, unknown>;
    const path = (e as ErrorObject).instancePath ?? '';
    let field = path.replace(/^\//, '').replace(/\//g, '.');
    let message = ruleInWords(e.keyword, params, e.message ?? 'is invalid');
    if (e.keyword === 'required' && typeof params.missingProperty === 'string') {
      field = field ? `${field}.${params.missingProperty}` : params.missingProperty;
      message = 'is required';
    } else if (e.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
      field = field ? `${field}.${params.additionalProperty}` : params.additionalProperty;
      message = 'is not a known field';
    }
    return { field: field || part, message };
  });
}
