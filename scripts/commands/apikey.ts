import { AppError } from '@/lib/shared/errors';
import { createApiKey, createApiKeyInput } from '@/lib/keys';
import { findAccountByEmail } from '@/lib/accounts';
import { type Command, CommandError, UsageError, parseCommandArgs } from '../cli-kit';
import { configuredDatabaseTarget, withDatabase } from '../open-database';
import { fieldErrorsOf, topField } from '@/lib/shared/zod-issues';

export const apikeyCommand: Command = {
  summary: 'Create an API key for a user and print the raw key (shown only this once)',
  help: `Usage: npm run apikey -- --email <email> [--label L] [--sites id,id] [--expires ISO-8601]

Creates a client API key acting for the account of <email> and prints the raw key alone on the
last line of standard output; only its SHA-256 is stored, so it cannot be shown again. Acts on
DATABASE_URL, or on the embedded database in PGLITE_DIR (created and seeded on first use; stop a
running server first: it holds the embedded database).

Options:
  --email <email>      the account the key acts for (required)
  --label <text>       a label to recognise the key by
  --sites <id,id>      restrict the key to these site ids of the account (default: all sites)
  --expires <time>     expiry as ISO-8601 date-time, e.g. 2027-01-31T00:00:00Z (default: never)
  -h, --help           show this help`,

  async run(args) {
    const { values } = parseCommandArgs(args, {
      email: { type: 'string' },
      label: { type: 'string' },
      sites: { type: 'string' },
      expires: { type: 'string' },
    });
    if (!values.email?.trim()) throw new UsageError('--email is required');
    const parsed = createApiKeyInput.safeParse({
      label: values.label,
      siteIds: values.sites
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean),
      expiresAt: values.expires,
    });
    if (!parsed.success) {
      const option = { label: '--label', siteIds: '--sites', expiresAt: '--expires' } as Record<string, string>;
      const problems = fieldErrorsOf(parsed.error).map(
        (e) => `${option[topField(e.parameter)] ?? e.parameter}: ${e.detail}`,
      );
      throw new UsageError(problems.join('; '));
    }

    const created = await withDatabase(async () => {
      const user = await findAccountByEmail(values.email!);
      if (!user)
        throw new CommandError(`no user with email ${values.email} in ${configuredDatabaseTarget().description}`);
      try {
        const principal = { userId: user.id, role: user.role, siteScope: null, via: 'commandLine' } as const;
        return { user, ...(await createApiKey(principal, parsed.data)) };
      } catch (err) {
        // The service's 400/403 answers (past expiry, someone else's site) are the operator's to fix.
        if (err instanceof AppError) throw new CommandError(err.detail);
        throw err;
      }
    });

    const { key, user } = created;
    const scope = key.siteIds ? `sites ${key.siteIds.join(', ')}` : 'all sites';
    console.log(
      `Created API key ${key.id}${key.label ? ` "${key.label}"` : ''} (${key.keyPrefix}…) for ${user.email}: ` +
        `${scope}, ${key.expiresAt ? `expires ${key.expiresAt}` : 'never expires'}. Store it now; it is not shown again.`,
    );
    console.log(created.apiKey);
  },
};
