import { dayNumber } from '@/db/seed-data';
import { seedDemoPaymentHistory } from '@/lib/payments';
import { DEMO_DAYS, DEMO_MEMBERS, DEMO_PASSWORD, DEMO_USERS, seedDemo } from '@/db/seed';
import { LARGE, seedLarge } from '@/db/seed-large';
import { type Command, CommandError, UsageError, parseCommandArgs } from '../cli-kit';
import { configuredDatabaseTarget, isLocalDatabaseUrl, withDatabase } from '../open-database';
import { Progress } from '../progress';

export const seedCommand: Command = {
  summary: 'Replace every user, site, API key, session and revenue row with the demo data set',
  help: `Usage: tsx scripts/cli.ts seed [--scale demo|large] [--today YYYY-MM-DD] [--force]   (npm run db:seed)

Deletes all users, sites, API keys, sessions and revenue, then loads the demo publishers
(${DEMO_USERS.map((u) => u.email).join(', ')}; team members ${DEMO_MEMBERS.map((m) => m.email).join(', ')};
password "${DEMO_PASSWORD}") and ${DEMO_DAYS} days
of revenue per site and country. Acts on DATABASE_URL, or on the embedded database in PGLITE_DIR
when DATABASE_URL is unset (stop a running server first: it holds the embedded database).

With --scale large it then adds publisher ${LARGE.email} (password "${DEMO_PASSWORD}") with
${LARGE.sites} sites × ${LARGE.countries} countries × ${LARGE.days} days (${(LARGE.sites * LARGE.countries * LARGE.days).toLocaleString('en-US')} rows), for benchmarks:
about 5–10 minutes and 5 GB on PostgreSQL; not meant for the embedded database.

Options:
  --scale demo|large  the demo data alone (default), or with the large publisher too
  --today YYYY-MM-DD  last day of the data (UTC); default today. A day's numbers never depend on it.
  --force             allow a DATABASE_URL on another machine (refused by default: it wipes the data)
  -h, --help          show this help`,

  async run(args) {
    const { values } = parseCommandArgs(args, {
      today: { type: 'string' },
      force: { type: 'boolean' },
      scale: { type: 'string' },
    });
    if (values.scale !== undefined && values.scale !== 'demo' && values.scale !== 'large') {
      throw new UsageError(`--scale must be demo or large, not "${values.scale}"`);
    }
    if (values.today !== undefined) {
      try {
        dayNumber(values.today);
      } catch {
        throw new UsageError(`--today must be a date as YYYY-MM-DD, not "${values.today}"`);
      }
    }

    const target = configuredDatabaseTarget();
    if (target.url && !isLocalDatabaseUrl(target.url) && !values.force) {
      throw new CommandError(
        `refusing to seed ${target.description}: it is not on this machine, and seeding deletes every ` +
          `user, site, API key and revenue row there. If that is really what you want, add --force.`,
      );
    }

    // The seed replaces everything anyway: don't let opening a new embedded folder seed it first.
    const progress = new Progress();
    const { summary, large } = await withDatabase(
      async (database) => ({
        summary: await seedDemo(database.db, { today: values.today }).then(async (summary) => {
          await seedDemoPaymentHistory({ today: values.today, db: database.db });
          return summary;
        }),
        large:
          values.scale === 'large'
            ? await seedLarge(database, {
                today: values.today,
                onProgress: (done, total) =>
                  progress.show(
                    done,
                    (rate) => `${LARGE.email}: ${Math.floor((done / total) * 100)} % (${rate} rows/s)…`,
                  ),
              })
            : null,
      }),
      { seedIfEmpty: false },
    );
    progress.clear();
    const count = (n: number) => n.toLocaleString('en-US');
    console.log(
      `Seeded ${target.description}: ${summary.users} users, ${summary.sites} sites, ` +
        `${count(summary.revenueRows)} revenue rows in ${(summary.ms / 1000).toFixed(1)} s. ` +
        `Sign in as ${DEMO_USERS[0].email} / ${DEMO_PASSWORD}.`,
    );
    if (large) {
      console.log(
        `Added ${LARGE.email}: ${LARGE.sites} sites, ${count(large.rows)} revenue rows in ${(large.ms / 1000).toFixed(0)} s ` +
          `(${count(Math.round((large.rows / large.ms) * 1000))} rows/s).`,
      );
    }
  },
};
