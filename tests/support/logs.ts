import type { MockInstance } from 'vitest';

export interface LogLine {
  level: number;
  msg: string;
  err?: { message: string };
  [field: string]: unknown;
}

/** The logger's lines (lib/platform/log.ts writes JSON through the console) among what console spies caught, parsed. */
export function loggedLines(...spies: MockInstance[]): LogLine[] {
  return spies
    .flatMap((spy) => spy.mock.calls.map(([first]) => String(first)))
    .filter((text) => text.startsWith('{"level":'))
    .map((text) => JSON.parse(text) as LogLine);
}
