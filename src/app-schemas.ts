import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';
import { validatorCompiler } from './infra/http/validation.ts';

/**
 * Route schemas compile when a route first serves, not while the app is built: compiling them all
 * was most of the app's start-up CPU, and most routes of a process never serve (each test's app
 * serves a handful). `buildApp({ eagerSchemas: true })` compiles them all at once, as a test does.
 */

type Serialize = (data: unknown) => string;
type SerializerFactory = (external?: unknown, opts?: unknown) => (o: { schema?: unknown }) => Serialize;

// Fastify's own serializer compiler (fast-json-stringify), from where Fastify itself loads it.
const fastifyRequire = createRequire(createRequire(import.meta.url).resolve('fastify'));
const { SerializerSelector } = fastifyRequire('@fastify/fast-json-stringify-compiler') as {
  SerializerSelector: () => SerializerFactory;
};

/**
 * Compiled serializers by schema object, for the process: a schema with no shared schemas to refer
 * to compiles the same function for every app built in the process (tests build hundreds).
 */
const serializers = new WeakMap<object, Serialize>();

/** The `compilersFactory.buildSerializer` Fastify option: lazy unless `eager`. */
export const lazySerializers =
  (eager = false): SerializerFactory =>
  (external, opts) => {
    const compile = SerializerSelector()(external, opts);
    const shareable = opts === undefined && Object.keys(external ?? {}).length === 0;
    const get = (o: { schema?: unknown }) => {
      const key = shareable && typeof o.schema === 'object' && o.schema !== null ? o.schema : null;
      const known = key ? serializers.get(key) : undefined;
      if (known) return known;
      const fn = compile(o);
      if (key) serializers.set(key, fn);
      return fn;
    };
    if (eager) return get;
    return (o) => {
      let fn: Serialize | undefined;
      return (data) => {
        fn ??= get(o);
        return fn(data);
      };
    };
  };

/**
 * `validatorCompiler`, compiled at the first request. `schemaEnv` makes Fastify pass the request as
 * the parent, as it does for an Ajv function, so that coercion can replace a root value.
 */
export function lazyValidator(o: Parameters<typeof validatorCompiler>[0]) {
  let fn: ValidateFunction | undefined;
  const validate = Object.assign(
    (data: unknown, cxt?: Parameters<ValidateFunction>[1]) => {
      fn ??= validatorCompiler(o);
      const ok = fn(data, cxt);
      validate.errors = fn.errors;
      return ok;
    },
    { errors: null as ValidateFunction['errors'], schemaEnv: true },
  );
  return validate;
}
