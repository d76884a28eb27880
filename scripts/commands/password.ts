import { createInterface } from 'node:readline';
import { MIN_PASSWORD_LENGTH, passwordProblem, setPassword } from '@/lib/identity';
import { type Command, CommandError, UsageError, parseCommandArgs } from '../cli-kit';
import { configuredDatabaseTarget, withDatabase } from '../open-database';

/** The first line of standard input: typed without echo on a terminal, or piped by a script. */
export async function readPassword(prompt = 'New password (not shown): '): Promise<string> {
  const input = process.stdin;
  if (!input.isTTY) {
    const lines = createInterface({ input, terminal: false });
    for await (const line of lines) return line;
    return '';
  }
  process.stderr.write(prompt);
  input.setRawMode(true);
  input.setEncoding('utf8');
  let typed = '';
  try {
    for await (const chunk of input) {
      for (const char of chunk as string) {
        if (char === '\r' || char === '\n') return typed;
        if (char === '\u0003') throw new CommandError('cancelled', 130); // Ctrl-C
        typed = char === '\u007f' || char === '\b' ? typed.slice(0, -1) : typed + char;
      }
    }
    return typed;
  } finally {
    input.setRawMode(false);
    process.stderr.write('\n');
  }
}

export const passwordCommand: Command = {
  summary: "Set an account's password (read from standard input) and end its sessions",
  help: `Usage: npm run password -- --email <email>     (the new password on standard input)

Sets the password of the account with <email> and signs it out everywhere. The password is read from
standard input: typed without echo on a terminal, or the first line of a pipe, e.g.
  printf '%s\\n' "$NEW_PASSWORD" | npm run password -- --email admin@example.com
It must have at least ${MIN_PASSWORD_LENGTH} characters, not be a commonly used password, and not be the demo
password. Use it to give the demo accounts passwords of their own before serving them beyond this machine.
Acts on DATABASE_URL, or on the embedded database in PGLITE_DIR (stop a running server first: it holds the
embedded database).

Options:
  --email <email>  the account (required)
  -h, --help       show this help`,

  async run(args) {
    const { values } = parseCommandArgs(args, { email: { type: 'string' } });
    const email = values.email?.trim();
    if (!email) throw new UsageError('--email is required');
    const password = await readPassword();
    const problem = passwordProblem(password);
    if (problem) throw new CommandError(`the new password ${problem}`);
    const changed = await withDatabase(() => setPassword(email, password), { seedIfEmpty: false });
    if (!changed) throw new CommandError(`no user with email ${email} in ${configuredDatabaseTarget().description}`);
    console.log(`Password of ${email} changed; its sessions are ended.`);
  },
};
