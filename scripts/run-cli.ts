import { EmbeddedDatabaseBusyError } from '@/db/embedded-lock';
import { AppError } from '@/lib/shared/errors';
import { type Command, CommandError, UsageError } from './cli-kit';
import { adminCreateCommand } from './commands/admin-create';
import { apikeyCommand } from './commands/apikey';
import { importCommand } from './commands/import';
import { mailCommand } from './commands/mail';
import { migrateCommand } from './commands/migrate';
import { passwordCommand } from './commands/password';
import { seedCommand } from './commands/seed';
import { statementsCommand } from './commands/statements';
import { log } from '@/lib/platform/log';

/**
 * The command line (CLI) behind `tsx scripts/cli.ts <command> [options]`. To add a command, write it in
 * scripts/commands/ as a `Command` (scripts/cli-kit.ts) and list it here.
 */
const COMMANDS: Record<string, Command> = {
  seed: seedCommand,
  apikey: apikeyCommand,
  import: importCommand,
  migrate: migrateCommand,
  password: passwordCommand,
  mail: mailCommand,
  statements: statementsCommand,
  'admin-create': adminCreateCommand,
};

const EXIT_USAGE = 2;

function overview(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  return [
    'Usage: tsx scripts/cli.ts <command> [options]',
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`),
    '',
    'Run "tsx scripts/cli.ts <command> --help" for the options of a command.',
  ].join('\n');
}

/** Runs one command line and returns the exit code; output goes to console.log / console.error. */
export async function runCli(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined) {
    console.error(overview());
    return EXIT_USAGE;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? args[0] : undefined;
    console.log(topic && Object.hasOwn(COMMANDS, topic) ? COMMANDS[topic].help : overview());
    return 0;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    console.error(`Unknown command "${name}".\n\n${overview()}`);
    return EXIT_USAGE;
  }
  if (args.includes('--help') || args.includes('-h')) {
    console.log(command.help);
    return 0;
  }

  try {
    await command.run(args);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`${name}: ${err.message}\n\n${command.help}`);
      return EXIT_USAGE;
    }
    if (err instanceof CommandError) {
      console.error(`${name}: ${err.message}`);
      return err.exitCode;
    }
    const reason = operationalReason(err);
    if (reason) {
      console.error(`${name}: ${reason}`);
      return 1;
    }
    // A bug: keep the stack, but never a failed query's parameters (they can hold key or password hashes).
    log.error({ command: name, err }, 'command failed');
    return 1;
  }
}

/** A one-line explanation for failures the operator can fix (busy folder, bad config, unreachable server). */
function operationalReason(err: unknown): string | null {
  if (err instanceof EmbeddedDatabaseBusyError) return err.message;
  // e.g. migrations running elsewhere (db/migrate.ts) when the command opened the database.
  if (err instanceof AppError && err.code === 'unavailable') return err.message;
  if (err instanceof Error && err.message.startsWith('Invalid configuration')) return err.message;
  // Drizzle wraps driver errors; the useful part (ECONNREFUSED, "database … does not exist") is a cause.
  for (let e = err; e instanceof Error; e = e.cause) {
    const { code, severity } = e as Error & { code?: unknown; severity?: unknown };
    if ((typeof code === 'string' && /^E[A-Z]+$/.test(code)) || severity === 'FATAL') {
      return `cannot use the database: ${e.message}`;
    }
  }
  return null;
}
