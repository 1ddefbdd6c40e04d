import { type TSchema, Type } from 'typebox';

/** Shared pieces of the route schemas. */
export const Timestamp = Type.String({ format: 'date-time', examples: ['2026-11-22T12:00:00.000Z'] });
export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
export const Address = Type.String({
  pattern: '^0x[0-9a-fA-F]{40}$',
  description: '0x followed by 40 hex digits',
});
export const IdParams = Type.Object({ id: Type.String({ maxLength: 100 }) }, { additionalProperties: false });

export const Limit = Type.Integer({ minimum: 1, maximum: 100, default: 20 });
export const Offset = Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 });

/**
 * A copy of a shared schema carrying examples for the OpenAPI document (the body's become the
 * request example, the success schema's the response example); validation ignores them.
 */
export const withExamples = <T extends TSchema>(schema: T, ...examples: unknown[]): T => ({
  ...schema,
  examples,
});

export const iso = (d: Date): string => d.toISOString();
export const isoOrNull = (d: Date | null): string | null => (d ? d.toISOString() : null);
