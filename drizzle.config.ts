import { defineConfig } from 'drizzle-kit';

// Only `npm run db:generate` uses this: it diffs the schema files against db/migrations and writes new SQL.
// The application applies those migrations itself at start-up (db/client.ts), on PGlite and PostgreSQL alike.
export default defineConfig({
  dialect: 'postgresql',
  schema: ['./db/schema.ts', './db/schema-payments.ts', './db/schema-alerts.ts'],
  out: './db/migrations',
});
