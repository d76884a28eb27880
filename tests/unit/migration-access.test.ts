import { afterEach, describe, expect, it } from 'vitest';
import { migrationAccess, readEnv, setEnv } from '@/lib/platform/env';

/** Who migrates PostgreSQL and which role gets the app's privileges (README, "Database roles"). */
const access = (source: Record<string, string>) => {
  setEnv(readEnv(source));
  return migrationAccess();
};

afterEach(() => setEnv(undefined));

describe('migrationAccess', () => {
  const APP = 'postgres://portal_app:secret@db.example.com:5432/portal';
  const OWNER = 'postgres://portal_owner:other@db.example.com:5432/portal';

  it('migrates as DATABASE_MIGRATION_URL and grants DATABASE_URL’s user, when the two differ', () => {
    expect(access({ DATABASE_URL: APP, DATABASE_MIGRATION_URL: OWNER })).toEqual({
      ownerUrl: OWNER,
      appRole: 'portal_app',
    });
  });

  it('grants nobody when both name the same user, or only DATABASE_URL is set', () => {
    const sameUser = 'postgres://portal_app:secret@db.example.com:6543/portal';
    expect(access({ DATABASE_URL: APP, DATABASE_MIGRATION_URL: sameUser }).appRole).toBeUndefined();
    expect(access({ DATABASE_URL: APP })).toEqual({ ownerUrl: undefined, appRole: undefined });
  });

  it('takes DATABASE_APP_ROLE as it is (a pooler may add to the user name), and decodes a URL’s user', () => {
    const pooled = 'postgres://portal_app.tenant42:secret@pooler.example.com:6543/portal';
    expect(access({ DATABASE_URL: pooled, DATABASE_MIGRATION_URL: OWNER, DATABASE_APP_ROLE: 'portal_app' })).toEqual({
      ownerUrl: OWNER,
      appRole: 'portal_app',
    });
    expect(access({ DATABASE_URL: 'postgresql://app%2Drole@h/db', DATABASE_MIGRATION_URL: OWNER }).appRole).toBe(
      'app-role',
    );
  });

  it('is nothing for the embedded database, and DATABASE_MIGRATION_URL needs DATABASE_URL', () => {
    expect(access({})).toEqual({});
    expect(() => readEnv({ DATABASE_MIGRATION_URL: OWNER })).toThrow(/DATABASE_MIGRATION_URL: .*set DATABASE_URL too/);
    expect(() => readEnv({ DATABASE_URL: APP, DATABASE_MIGRATION_URL: 'mysql://x' })).toThrow(/DATABASE_MIGRATION_URL/);
  });
});
