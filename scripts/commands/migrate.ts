import { openConfiguredDatabase } from '@/db/client';
import { MigrationsRunningElsewhereError, readMigrations } from '@/db/migrate';
import { env, migrationAccess } from '@/lib/platform/env';
import { MIGRATE_COMMAND_LOCK_WAIT_MS } from '@/lib/platform/limits';
import { type Command, CommandError, UsageError, parseCommandArgs } from '../cli-kit';
import { configuredDatabaseTarget } from '../open-database';

const DEFAULT_WAIT_S = MIGRATE_COMMAND_LOCK_WAIT_MS / 1000;

export const migrateCommand: Command = {
  summary: 'Apply the pending database migrations (the deploy step), and nothing else',
  help: `Usage: tsx scripts/cli.ts migrate [--wait SECONDS]   (npm run db:migrate)

Applies the migrations in db/migrations that the database has not had yet, and changes nothing else (no
demo data). Acts on DATABASE_URL, or on the embedded database in PGLITE_DIR when DATABASE_URL is unset
(stop a running server first: it holds the embedded database). Run it before a new version serves
requests: a Vercel build runs it (package.json "vercel-build").

With DATABASE_MIGRATION_URL set (the same database as the tables' owner) it migrates as that role, then
grants the app's role (DATABASE_APP_ROLE, else DATABASE_URL's user) what the app needs and no more:
SELECT and INSERT alone on the activity log and the ledger. Every run grants again, so a rerun repairs them.

On PostgreSQL one migrator runs at a time. While another holds the lock (another deployment's build, or a
server applying migrations at its first request), this command waits for it, at most --wait seconds, saying
so, then gives up with exit code 1. On Vercel (VERCEL=1) without DATABASE_URL there is no database to
migrate: it says so and succeeds, so that a preview without a database still builds.

Options:
  --wait SECONDS  how long to wait for another migrator (default ${DEFAULT_WAIT_S})
  -h, --help      show this help`,

  async run(args) {
    const { values } = parseCommandArgs(args, { wait: { type: 'string' } });
    const waitS = values.wait === undefined ? DEFAULT_WAIT_S : Number(values.wait);
    if (!/^\d+$/.test(values.wait ?? '0') || waitS > 3600) {
      throw new UsageError(`--wait must be a whole number of seconds up to 3600, not "${values.wait}"`);
    }
    const { DATABASE_URL, VERCEL } = env();
    if (VERCEL && !DATABASE_URL) {
      console.log(
        'DATABASE_URL is not set: nothing to migrate. This deployment has no database and will answer 503 ' +
          'naming DATABASE_URL until one is set (README, "Deploying to Vercel").',
      );
      return;
    }

    const target = configuredDatabaseTarget();
    const applied: string[] = [];
    try {
      const database = await openConfiguredDatabase({
        seedIfEmpty: false,
        statementTimeoutMs: 0,
        migrate: {
          // A rerun repairs the app role's privileges (db/app-role.ts), also when nothing is pending.
          regrant: true,
          lockWaitMs: waitS * 1000,
          onWait: (holder, waitMs) =>
            console.log(`Another migrator holds the lock: ${holder}. Waiting for it, at most ${waitMs / 1000} s…`),
          onApplied: (migration, ms) => {
            applied.push(migration.tag);
            const how = migration.inTransaction ? '' : ', outside a transaction';
            console.log(`Applied ${migration.tag} (${(ms / 1000).toFixed(1)} s${how}).`);
          },
        },
      });
      await database.close();
    } catch (err) {
      if (err instanceof MigrationsRunningElsewhereError) {
        throw new CommandError(
          `gave up after ${err.waitedMs / 1000} s: ${err.holder} still holds the migration lock. ` +
            'Run this again once it has finished, or with a longer --wait.',
        );
      }
      throw err;
    }
    const total = readMigrations().length;
    const { appRole } = migrationAccess();
    if (appRole) console.log(`Granted the app's role "${appRole}" its privileges (README, "Database roles").`);
    console.log(
      applied.length === 0
        ? `${target.description} is up to date: all ${total} migrations were applied before.`
        : `${target.description} is up to date: applied ${applied.length} of ${total} migrations.`,
    );
  },
};
