/**
 * `Promise.all`, but a failure is the first in argument order rather than the first in time: reads
 * run side by side and the same failing state always answers with the same error (a retry, or the
 * same read through another surface, sees what the first saw).
 */
export async function allInOrder<T extends readonly unknown[]>(
  promises: readonly [...{ [K in keyof T]: Promise<T[K]> | T[K] }],
): Promise<T> {
  const settled = await Promise.allSettled(promises);
  for (const s of settled) if (s.status === 'rejected') throw s.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as unknown as T;
}
