/** Postgres error fields, as postgres-js and PGlite report them (drizzle may wrap them in `cause`). */
function pgError(err: unknown): { code?: string; constraint?: string } | null {
  for (let e = err as Record<string, unknown> | undefined, depth = 0; e && depth < 4; depth++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) {
      const constraint = (e.constraint_name ?? e.constraint) as string | undefined;
      return { code: e.code, constraint };
    }
    e = e.cause as Record<string, unknown> | undefined;
  }
  return null;
}

/** The violated unique constraint's name, or null when the error is something else. */
export function uniqueViolation(err: unknown): string | null {
  const pg = pgError(err);
  return pg?.code === '23505' ? (pg.constraint ?? '') : null;
}
