import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderClientSchema, SCHEMA_PATH } from '../scripts/generate-client.ts';

// The typed client's schema against the OpenAPI document the routes make now. It needs no
// database of the tests' own, so it runs once, not per database.
describe('generated schema', () => {
  it('is up to date with the OpenAPI document (run `npm run client:generate`)', async () => {
    const fresh = await renderClientSchema();
    expect(fresh.length).toBeGreaterThan(1000);
    // Not toEqual on 200 KB: a short message says what to do.
    expect(readFileSync(SCHEMA_PATH, 'utf8') === fresh, 'clients/typescript/schema.ts is stale').toBe(true);
  });
});
