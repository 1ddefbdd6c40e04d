import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaValidationError } from 'fastify';
import type { ErrorDetail } from '../../lib/errors.ts';

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

/** Ajv's errors as `details` entries that name the field a client has to fix. */
export function toDetails(
  errors: (FastifySchemaValidationError | ErrorObject)[],
  part: string,
): ErrorDetail[] {
  return errors.map((e) => {
    const params = (e.params ?? {}) as Record<string, unknown>;
    const path = (e as ErrorObject).instancePath ?? '';
    let field = path.replace(/^\//, '').replace(/\//g, '.');
    let message = e.message ?? 'is invalid';
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
