/**
 * Readers of environment variables for `loadConfig` (config.ts): each parses one variable with
 * its default, and records what is wrong in `problems` instead of throwing, so every bad variable
 * is reported together.
 */
type Env = Record<string, string | undefined>;

export function reader(env: Env, problems: string[]) {
  const int = (name: string, def: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return def;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}").`);
      return def;
    }
    return n;
  };
  const bool = (name: string, def: boolean): boolean => {
    const raw = env[name];
    if (raw === undefined || raw === '') return def;
    if (['true', '1', 'yes'].includes(raw.toLowerCase())) return true;
    if (['false', '0', 'no'].includes(raw.toLowerCase())) return false;
    problems.push(`${name} must be true or false (got "${raw}").`);
    return def;
  };
  const str = (name: string): string | undefined => {
    const raw = env[name];
    return raw === undefined || raw === '' ? undefined : raw;
  };
  const url = (name: string, protocols: string[]): string | undefined => {
    const raw = str(name);
    if (raw === undefined) return undefined;
    try {
      const u = new URL(raw);
      if (!protocols.includes(u.protocol)) throw new Error('protocol');
      return raw;
    } catch {
      problems.push(`${name} must be a ${protocols.join(' or ')} URL.`);
      return undefined;
    }
  };
  const oneOf = <T extends string>(name: string, def: T, allowed: readonly T[]): T => {
    const raw = str(name);
    if (raw === undefined) return def;
    if (!(allowed as readonly string[]).includes(raw)) {
      problems.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}").`);
      return def;
    }
    return raw as T;
  };
  const match = (name: string, pattern: RegExp, what: string): string | undefined => {
    const raw = str(name);
    if (raw === undefined) return undefined;
    if (!pattern.test(raw)) {
      // Never echo the value: it may be a secret.
      problems.push(`${name} must be ${what}.`);
      return undefined;
    }
    return raw;
  };
  return { int, bool, str, url, oneOf, match };
}
