import { revalidatePath } from 'next/cache';
import type { z } from 'zod';
import type { Principal } from '@/lib/access';
import type { SessionPerson } from '@/lib/identity';
import { kickOutboxes } from '@/lib/http/background';
import { STATUS_OF } from '@/lib/http/problem';
import { isDatabaseUnavailable, isStatementTimeout } from '@/lib/http/unavailable';
import { log } from '@/lib/platform/log';
import { AppError, ValidationError, type FieldError } from '@/lib/shared/errors';
import { fieldErrorsOf } from '@/lib/shared/zod-issues';
import type { ActionError, ActionResult, Echo } from './action-result';
import { admitted, currentPerson, principalFor } from './session';

/**
 * The one wrapper every server action goes through, as lib/http/api-route.ts is the API's:
 * session → principal in the account the page names → grant → zod-parsed input → service → one result type
 * (lib/dashboard/action-result.ts), every AppError (and a database outage) as its error; after a success the
 * mail sender is kicked once (a service may have queued mail) and the pages named are revalidated.
 * Actions are declared in lib/dashboard/actions/<feature>.ts ('use server'); no action writes its own
 * try/catch, AppError mapping or kicking the outboxes.
 */

/** The sentence for input an action cannot read: only a tampered or stale page sends it. */
const MALFORMED = 'The request was malformed; reload the page and try again.';

interface CommonSpec<S extends z.ZodType> {
  /**
   * The schema of what the action is sent (the API's own where there is one): for serverAction, the tuple of its
   * arguments (after the account); for formAction, the form's fields. What does not parse is a 400, field by field.
   */
  input: S;
  /** The detail of that 400 (MALFORMED by default); the field messages are in its `errors`. */
  invalid?: string;
  /** Pages whose data the action changes, revalidated after a success. */
  revalidate?: readonly string[];
  /** Fields of a form sent back with a refusal, for the form to show again (an e-mail, never a password). */
  echo?: readonly string[];
}

/** Signed in: the person, in their first account or (with `account`) the one the page names. */
interface SignedInSpec<S extends z.ZodType> extends CommonSpec<S> {
  anonymous?: false;
  /** The action's first argument is the account the page names (its `?as=`, useAccount()); null for their first. */
  account?: boolean;
  /** Served to a person who must still set up two-factor sign-in (the Security page, signing out). */
  duringTwoFactorSetup?: boolean;
  /** A check before anything is parsed or run: throws an AppError (forbidden) to refuse. */
  grant?: (principal: Principal) => void;
}

/** No session needed (signing in, a forgotten password, an invitation link): no principal. */
interface AnonymousSpec<S extends z.ZodType> extends CommonSpec<S> {
  anonymous: true;
}

type Spec<S extends z.ZodType> = SignedInSpec<S> | AnonymousSpec<S>;
type Run<S extends z.ZodType, P, T> = (input: z.output<S>, ctx: { principal: P }) => Promise<T>;
type Arguments = z.ZodType<unknown[], unknown[]>;
type Account = string | null | undefined;

/** Where the wrapper finds the signed-in person: this request's session cookie, or (in tests) any lookup. */
export interface ActionSession {
  person(): Promise<SessionPerson | null>;
}
const REQUEST_SESSION: ActionSession = { person: () => currentPerson() };

/** A server action a component calls with its arguments: `input`, a tuple, parses them. */
export function serverAction<S extends Arguments, T>(
  spec: SignedInSpec<S> & { account: true },
  run: Run<S, Principal, T>,
): (account: Account, ...args: z.input<S>) => Promise<ActionResult<T>>;
export function serverAction<S extends Arguments, T>(
  spec: SignedInSpec<S> & { account?: false },
  run: Run<S, Principal, T>,
): (...args: z.input<S>) => Promise<ActionResult<T>>;
export function serverAction<S extends Arguments, T>(
  spec: AnonymousSpec<S>,
  run: Run<S, null, T>,
): (...args: z.input<S>) => Promise<ActionResult<T>>;
export function serverAction<S extends Arguments, T>(spec: Spec<S>, given: Run<S, Principal, T> | Run<S, null, T>) {
  // The overloads pair an anonymous spec with a run that takes no principal, and a signed-in one with one that does.
  const run = given as Run<S, Principal | null, T>;
  if (!spec.anonymous && spec.account) {
    return (account: Account, ...args: unknown[]) => performAction(spec, run, args, account);
  }
  return (...args: unknown[]) => performAction(spec, run, args, null);
}

/** A server action for a <form action> with useActionState: `input` parses the form's fields. */
export function formAction<S extends z.ZodType, T>(
  spec: SignedInSpec<S> & { account?: false },
  run: Run<S, Principal, T>,
): (previous: unknown, form: FormData) => Promise<ActionResult<T>>;
export function formAction<S extends z.ZodType, T>(
  spec: AnonymousSpec<S>,
  run: Run<S, null, T>,
): (previous: unknown, form: FormData) => Promise<ActionResult<T>>;
export function formAction<S extends z.ZodType, T>(spec: Spec<S>, given: Run<S, Principal, T> | Run<S, null, T>) {
  const run = given as Run<S, Principal | null, T>;
  return (_previous: unknown, form: FormData) => performAction(spec, run, Object.fromEntries(form), null);
}

/**
 * A server action for a plain <form action> that ends in a redirect (signing out): a refusal has nowhere to be
 * shown there, so it is thrown, for the error page.
 */
export function redirectingAction<S extends z.ZodType>(
  spec: SignedInSpec<S> & { account?: false },
  run: Run<S, Principal, never>,
): (form: FormData) => Promise<void>;
export function redirectingAction<S extends z.ZodType>(
  spec: AnonymousSpec<S>,
  run: Run<S, null, never>,
): (form: FormData) => Promise<void>;
export function redirectingAction<S extends z.ZodType>(
  spec: Spec<S>,
  given: Run<S, Principal, never> | Run<S, null, never>,
) {
  const run = given as Run<S, Principal | null, never>;
  return async (form: FormData) => {
    const result = await performAction(spec, run, Object.fromEntries(form), null);
    if (!result.ok) throw new Error(result.error.detail);
  };
}

/** The wrapper itself: what serverAction and formAction run, with the session to read (tests pass their own). */
export async function performAction<S extends z.ZodType, T>(
  spec: Spec<S>,
  run: Run<S, Principal | null, T>,
  raw: unknown,
  account: Account,
  session: ActionSession = REQUEST_SESSION,
): Promise<ActionResult<T>> {
  let running = false;
  try {
    let principal: Principal | null = null;
    if (!spec.anonymous) {
      // Signed out (or led to set up two-factor sign-in first): the redirect every page gives.
      const person = admitted(await session.person(), { duringTwoFactorSetup: spec.duringTwoFactorSetup });
      principal = await principalFor(person, account);
      spec.grant?.(principal);
    }
    const parsed = spec.input.safeParse(raw);
    if (!parsed.success) throw new ValidationError(inputErrorsOf(parsed.error), spec.invalid ?? MALFORMED);
    running = true;
    const data = await run(parsed.data, { principal });
    succeeded(spec);
    return { ok: true, data };
  } catch (err) {
    // An action that ends in a redirect (signing in, a new password) succeeded too.
    if (running && isRedirect(err)) succeeded(spec);
    const error = actionErrorOf(err);
    if (!error) throw err;
    const echo = echoOf(raw, spec.echo);
    return echo ? { ok: false, error, echo } : { ok: false, error };
  }
}

/** The input's issues by field: an argument's position is not a field (`[1].name` is `name`). */
function inputErrorsOf(error: z.ZodError): FieldError[] {
  return fieldErrorsOf(error, 'form').map((e) => ({
    ...e,
    parameter: e.parameter.replace(/^\[\d+\]\.?/, '') || 'form',
  }));
}

function succeeded(spec: CommonSpec<z.ZodType>) {
  // A service may have queued mail (an invitation) or jobs (alerts): done once this answer is out.
  kickOutboxes();
  for (const path of spec.revalidate ?? []) revalidatePath(path);
}

/** Next.js's redirect() throws an error whose digest says so. */
const isRedirect = (err: unknown) =>
  typeof (err as { digest?: unknown } | null)?.digest === 'string' &&
  (err as { digest: string }).digest.startsWith('NEXT_REDIRECT');

const UNAVAILABLE_RETRY_SECONDS = 5;

/** Every AppError, and a database that is not there, as the result's error; anything else is a bug (undefined). */
function actionErrorOf(err: unknown): ActionError | undefined {
  if (err instanceof AppError) {
    const { status, title } = STATUS_OF[err.code];
    const retryAfterSeconds =
      err.code === 'unavailable' ? (err.retryAfterSeconds ?? UNAVAILABLE_RETRY_SECONDS) : err.retryAfterSeconds;
    return {
      status,
      title,
      detail: err.detail,
      ...(err.errors && { errors: err.errors.map((e) => ({ ...e })) }),
      ...(retryAfterSeconds !== undefined && { retryAfterSeconds }),
    };
  }
  const { status, title } = STATUS_OF.unavailable;
  const retryAfterSeconds = UNAVAILABLE_RETRY_SECONDS;
  if (isStatementTimeout(err)) {
    log.warn({ err }, 'server action stopped at the statement timeout');
    return { status, title, detail: 'The database took too long to answer; try again in a moment.', retryAfterSeconds };
  }
  if (isDatabaseUnavailable(err)) {
    log.error({ err }, 'server action: database unavailable');
    return {
      status,
      title,
      detail: 'The portal is temporarily unavailable; try again in a moment.',
      retryAfterSeconds,
    };
  }
  return undefined;
}

function echoOf(raw: unknown, fields: readonly string[] | undefined): Echo | undefined {
  if (!fields || typeof raw !== 'object' || raw === null) return undefined;
  const sent = raw as Record<string, unknown>;
  return Object.fromEntries(fields.map((f) => [f, typeof sent[f] === 'string' ? sent[f] : '']));
}
