import type { FieldError } from '@/lib/shared/errors';

/**
 * What every server action answers (lib/dashboard/action.ts makes it): its data, or an error in the shape of the
 * API's problem details, so a form reads one type whatever the action. This file is safe for the browser: the
 * forms import the type and the helpers below.
 */
export type ActionResult<T = undefined> = { ok: true; data: T } | { ok: false; error: ActionError; echo?: Echo };

/** What the person typed, for the form to show again after a refusal (never a password). */
export type Echo = Record<string, string>;

export interface ActionError {
  /** The HTTP status the API would answer with: 400, 401, 403, 404, 409, 413, 429 or 503. */
  status: number;
  title: string;
  /** The sentence to show: the service's, or the action's own for input it cannot read. */
  detail: string;
  /** What is wrong field by field (or line by line of a file), as the API lists it: `parameter` is the field. */
  errors?: FieldError[];
  /** For 429 and 503: when to come back, in whole seconds. */
  retryAfterSeconds?: number;
}

/** The top-level field an error is about (`siteIds` for `siteIds[1]`). */
const topField = (parameter: string) => parameter.split(/[.[]/)[0];

/**
 * The message to show beside each field a form has (the first one about it), and under `form` everything else:
 * the other fields' messages as "parameter: detail", or the error's detail when no field is named (or `form`,
 * the wrapper's name for input that is not even an object).
 */
export function messagesOf(error: ActionError, shown: readonly string[]): Record<string, string> {
  const messages: Record<string, string> = {};
  for (const e of error.errors ?? []) {
    const field = topField(e.parameter);
    // Input that is no field's (not even an object): what the action says of input it cannot read.
    if (field === 'form') messages.form ??= error.detail;
    else if (shown.includes(field)) messages[field] ??= e.detail;
    else messages.form ??= `${e.parameter}: ${e.detail}`;
  }
  if (Object.keys(messages).length === 0) messages.form = error.detail;
  return messages;
}

/** The first field error's top-level field and message, or the detail alone. */
export function firstProblem(error: ActionError): { field?: string; message: string } {
  const first = error.errors?.[0];
  return first ? { field: topField(first.parameter), message: first.detail } : { message: error.detail };
}

/** For an action whose data is the sentence to announce: that sentence, or the refusal's detail. */
export const messageOf = (result: ActionResult<string>): string => (result.ok ? result.data : result.error.detail);
