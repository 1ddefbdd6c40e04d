import type { ValidateFunction } from 'ajv';
import { validatorCompiler } from '../infra/http/validation.ts';

/**
 * A schema's validator, compiled when a page first needs it rather than when its module loads:
 * compiling at import cost every process's start-up (and every test worker's import) its time.
 */
export function validatorOnFirstUse(
  schema: object,
  httpPart: 'body' | 'querystring',
): () => ValidateFunction {
  let fn: ValidateFunction | undefined;
  return () => {
    fn ??= validatorCompiler({ schema, httpPart });
    return fn;
  };
}
