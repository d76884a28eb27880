import { type ParseArgsConfig, parseArgs } from 'node:util';

/** One operator command; scripts/run-cli.ts lists them in its command table. */
export interface Command {
  /** One line for the command list. */
  summary: string;
  /** Full help: usage line, what it does, options. */
  help: string;
  /** Throws UsageError for a wrong invocation and CommandError for a refusal; anything else is a bug or outage. */
  run(args: string[]): Promise<void>;
}

/** The command was called wrongly: the CLI prints the message and the command's help, and exits with 2. */
export class UsageError extends Error {}

/** The command refuses or cannot do its job for a reason the operator can act on: message only, exit 1. */
export class CommandError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** `parseArgs` in strict mode, with its complaints turned into UsageError. */
export function parseCommandArgs<const O extends Options>(args: string[], options: O, allowPositionals = false) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}
