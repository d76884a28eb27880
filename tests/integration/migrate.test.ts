import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import { describe, expect, inject, it } from 'vitest';
import { migrate, migrationsFolder, openPglite, openPostgres } from '@/db/client';

const migrationCount = () => fs.readdirSync(migrationsFolder).filter((f) => f.endsWith('.sql')).length;

describe('migrations', () => {
  it('apply to a new embedded database, and a second run changes nothing', async () => {
    const database = await openPglite(undefined);
    try {
      await migrate(database);
      await migrate(database);
      const result = (await database.db.execute(
        sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
      )) as unknown as {
        rows: { n: number }[];
      };
      expect(result.rows[0].n).toBe(migrationCount());
    } finally {
      await database.close();
    }
  });

  // Only with TEST_DATABASE_URL: serverless instances that cold-start together all migrate at once.
  const source = inject('testDatabase');
  if (source.kind !== 'postgres') return;
  it('run by several instances at once on PostgreSQL, apply exactly once', async () => {
    const admin = await openPostgres(source.url, { max: 1 });
    const scratch = `portal_migrate_${process.pid}`;
    await admin.db.execute(sql.raw(`drop database if exists ${scratch} with (force)`));
    await admin.db.execute(sql.raw(`create database ${scratch}`));
    const url = new URL(source.url);
    url.pathname = `/${scratch}`;
    const instances = await Promise.all([1, 2, 3, 4].map(() => openPostgres(url.toString(), { max: 2 })));
    try {
      await Promise.all(instances.map((instance) => migrate(instance)));
      const rows = (await instances[0].db.execute(
        sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
      )) as unknown as {
        n: number;
      }[];
      expect(rows[0].n).toBe(migrationCount());
    } finally {
      await Promise.all(instances.map((instance) => instance.close()));
      await admin.db.execute(sql.raw(`drop database if exists ${scratch} with (force)`));
      await admin.close();
    }
  });
});
