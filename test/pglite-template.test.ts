import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/infra/db/client.ts';
import { templateName } from '../src/infra/db/pglite-template.ts';
import { pgliteTemplate } from './helpers/database.ts';

/**
 * A first start on a new DATA_DIR boots from the build's migrated template instead of running
 * initdb and every migration; a directory that holds a database already never loads it.
 */
const root = mkdtempSync(join(tmpdir(), 'bm-template-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * A template carrying a marker table, so that a database shows whether it booted from it: the
 * build's migrated template plus the marker (initdb and the migrations run in the last case below).
 */
async function markedTemplate(dir: string): Promise<void> {
  const client = new PGlite({ loadDataDir: await pgliteTemplate() });
  await client.exec('create table booted_from_template (x int)');
  const dump = await client.dumpDataDir('none');
  await client.close();
  writeFileSync(join(dir, templateName()), Buffer.from(await dump.arrayBuffer()));
}

type Database = Awaited<ReturnType<typeof openDatabase>>;
const one = async (db: Database, query: ReturnType<typeof sql>) =>
  ((await db.db.execute(query)) as unknown as { rows: unknown[] }).rows[0];
const marked = (db: Database) => one(db, sql`select to_regclass('booted_from_template') is not null as here`);

describe('the PGlite template', () => {
  it('a new directory boots from it, migrated; a restart and an existing directory ignore it', async () => {
    const templates = join(root, 'templates');
    mkdirSync(templates);
    await markedTemplate(templates);
    const dataDir = join(root, 'data');
    const first = await openDatabase({ kind: 'pglite', dataDir, templateDir: templates });
    expect(await marked(first)).toEqual({ here: true });
    // Migrated already: the app's tables are there and the migrator found nothing to apply.
    expect(await one(first, sql`select count(*)::int as n from bounties`)).toEqual({ n: 0 });
    await first.db.execute(sql`insert into booted_from_template values (1)`);
    await first.close();
    // A restart keeps its own data (the template is never loaded over a database).
    const again = await openDatabase({ kind: 'pglite', dataDir, templateDir: templates });
    expect(await one(again, sql`select count(*)::int as n from booted_from_template`)).toEqual({ n: 1 });
    await again.close();
    // Without a template for these migrations: initdb and the migrations, as before.
    const plain = await openDatabase({
      kind: 'pglite',
      dataDir: join(root, 'plain'),
      templateDir: join(root, 'none'),
    });
    expect(await marked(plain)).toEqual({ here: false });
    await plain.close();
  }, 60_000);
});
