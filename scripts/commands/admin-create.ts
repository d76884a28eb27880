import { createAdmin, createPublisherInput } from '@/lib/accounts';
import { MIN_PASSWORD_LENGTH, passwordProblem } from '@/lib/identity';
import { COMMAND_LINE } from '@/lib/access';
import { AppError } from '@/lib/shared/errors';
import { type Command, CommandError, UsageError, parseCommandArgs } from '../cli-kit';
import { configuredDatabaseTarget, withDatabase } from '../open-database';
import { readPassword } from './password';

/** The password typed twice without echo; a mismatch or a refused password ends the command before any change. */
async function promptPassword(): Promise<string> {
  const password = await readPassword('Password for the new admin (not shown): ');
  const problem = passwordProblem(password);
  if (problem) throw new CommandError(`the password ${problem}`);
  if ((await readPassword('The same password again: ')) !== password) {
    throw new CommandError('the two passwords differ; nothing was created');
  }
  return password;
}

export const adminCreateCommand: Command = {
  summary: 'Create an admin account (the first one on a fresh database): password typed, or an invitation e-mailed',
  help: `Usage: npm run admin:create -- --email <email> --name <name> [--invite]

Creates an admin account. On a terminal the password is asked for twice, without echo (at least
${MIN_PASSWORD_LENGTH} characters). Without a terminal, or with --invite, no password is asked for: an
invitation e-mail with a single-use link (72 hours) is queued instead. The link travels by e-mail only
(SMTP_URL; \`npm run mail -- outbox\` never shows it): without mail set up, type a password. Refuses an e-mail already in use. Acts on DATABASE_URL, or on the embedded
database in PGLITE_DIR (stop a running server first: it holds the embedded database).

Options:
  --email <email>  the admin's e-mail address (required)
  --name <name>    the admin's name (required)
  --invite         e-mail an invitation instead of asking for a password
  -h, --help       show this help`,

  async run(args) {
    const { values } = parseCommandArgs(args, {
      email: { type: 'string' },
      name: { type: 'string' },
      invite: { type: 'boolean' },
    });
    const parsed = createPublisherInput.safeParse({ email: values.email ?? '', name: values.name ?? '' });
    if (!parsed.success) {
      const wrong = parsed.error.issues.map((i) => `--${String(i.path[0])} ${i.message}`).join('; ');
      throw new UsageError(wrong);
    }
    const password = values.invite || !process.stdin.isTTY ? null : await promptPassword();
    const created = await withDatabase(
      async () => {
        try {
          return await createAdmin(COMMAND_LINE, parsed.data, password);
        } catch (err) {
          if (err instanceof AppError && err.code !== 'unavailable') throw new CommandError(err.detail);
          throw err;
        }
      },
      { seedIfEmpty: false },
    );
    const where = configuredDatabaseTarget().description;
    console.log(
      created.invited
        ? `Admin ${parsed.data.email} created in ${where}, invited: the invitation e-mail is queued (it is sent over SMTP_URL; npm run mail -- outbox lists it).`
        : `Admin ${parsed.data.email} created in ${where}; sign in with the password you typed.`,
    );
  },
};
