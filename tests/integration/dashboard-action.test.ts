import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { redirect } from 'next/navigation';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mailOutbox } from '@/db/schema';
import { requireOperator, type Principal } from '@/lib/access';
import { signIn } from '@/lib/identity';
import { type ActionSession, performAction } from '@/lib/dashboard/action';
import type { ActionResult } from '@/lib/dashboard/action-result';
import { sessionPersonOf } from '@/lib/dashboard/session';
import { settleBackgroundTasks } from '@/lib/http/background';
import { queueMail } from '@/lib/mail';
import { setRateLimitStore } from '@/lib/ratelimit';
import { createMemoryStore } from '@/lib/ratelimit/memory';
import { AppError, type ErrorCode, rateLimited, ValidationError } from '@/lib/shared/errors';
import { useTestDatabase } from '../support/db';
import { createPublisher } from '../support/factories';
import { useMailSink } from '../support/mail-env';

// The server-action wrapper (lib/dashboard/action.ts) with a real session, a real database and a real SMTP
// server: only where the session token comes from is the test's (a server action reads it from the cookie).
const t = useTestDatabase();
const mail = useMailSink();
beforeEach(() => setRateLimitStore(createMemoryStore()));
afterEach(() => setRateLimitStore(undefined));

const PASSWORD = 'the password of the action test';
const REQUEST = new Headers({ 'x-forwarded-for': '192.0.2.77' });

/** A publisher signed in for real: the session the wrapper reads, as a server action would from its cookie. */
async function signedIn(): Promise<{ session: ActionSession; accountId: string }> {
  const publisher = await createPublisher(t.db, { password: PASSWORD });
  const opened = await signIn(publisher.email, PASSWORD, '192.0.2.77');
  if (!opened.ok) throw new Error('the test publisher could not sign in');
  return { session: { person: () => sessionPersonOf(opened.token, REQUEST) }, accountId: publisher.id };
}
const SIGNED_OUT: ActionSession = { person: async () => null };
const NO_SESSION: ActionSession = {
  person: () => {
    throw new Error('an anonymous action reads no session');
  },
};

const anyInput = z.unknown();
const refusal = <T>(result: ActionResult<T>) => {
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result)}`);
  return result.error;
};

/** Awaits what a call throws (a redirect, a bug). */
const thrown = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (err: unknown) => err as Error & { digest?: string },
  );

describe('the server-action wrapper', () => {
  it('answers a signed-out caller with the redirect to the sign-in page, running nothing', async () => {
    let ran = false;
    const err = await thrown(performAction({ input: anyInput }, async () => (ran = true), ['x'], null, SIGNED_OUT));
    expect(err?.digest).toMatch(/^NEXT_REDIRECT;\w+;\/login;/);
    expect(ran).toBe(false);
  });

  it('runs with the principal of the signed-in person in their own account, and answers its data', async () => {
    const { session, accountId } = await signedIn();
    const result = await performAction(
      { input: z.tuple([z.string()]) },
      async ([word], { principal }) => `${word} ${principal?.userId}`,
      ['hello'],
      null,
      session,
    );
    expect(result).toEqual({ ok: true, data: `hello ${accountId}` });
  });

  it('refuses an account the person is no member of, as the page would', async () => {
    const { session } = await signedIn();
    const other = await createPublisher(t.db);
    let ran = false;
    const result = await performAction({ input: anyInput }, async () => (ran = true), [], other.id, session);
    expect(refusal(result)).toMatchObject({ status: 403, title: 'Forbidden' });
    expect(ran).toBe(false);
  });

  it('refuses when the grant check refuses, before parsing or running anything', async () => {
    const { session } = await signedIn();
    let ran = false;
    const grant = (principal: Principal) => requireOperator(principal, 'operate', 'Creating publishers');
    const result = await performAction(
      { input: z.tuple([z.string()]), grant },
      async () => (ran = true),
      [42],
      null,
      session,
    );
    const error = refusal(result);
    expect(error).toMatchObject({ status: 403, title: 'Forbidden' });
    expect(error.detail).toBe("Creating publishers is for the platform's operators only.");
    expect(error.errors).toBeUndefined();
    expect(ran).toBe(false);
  });

  it('answers input that does not parse with a 400 that names each field, and the action’s own sentence', async () => {
    const { session } = await signedIn();
    const input = z.tuple([z.string(), z.object({ email: z.email(), siteIds: z.array(z.string()) })]);
    const result = await performAction(
      { input, invalid: 'Check the fields.' },
      async () => 'never',
      ['id', { email: 'not an address', siteIds: ['a', 7] }],
      null,
      session,
    );
    expect(refusal(result)).toEqual({
      status: 400,
      title: 'Invalid request',
      detail: 'Check the fields.',
      // The argument's position is not a field: the form shows these beside "email" and "siteIds".
      errors: [
        { parameter: 'email', detail: 'Invalid email address' },
        { parameter: 'siteIds[1]', detail: 'Invalid input: expected string, received number' },
      ],
    });
  });

  const STATUSES: [ErrorCode, number, string][] = [
    ['invalid', 400, 'Invalid request'],
    ['unauthorized', 401, 'Unauthorized'],
    ['forbidden', 403, 'Forbidden'],
    ['not_found', 404, 'Not Found'],
    ['conflict', 409, 'Conflict'],
    ['too_large', 413, 'Content Too Large'],
    ['rate_limited', 429, 'Too Many Requests'],
    ['unavailable', 503, 'Service Unavailable'],
  ];
  it.each(STATUSES)('answers an AppError %s as its status and title, with its detail', async (code, status, title) => {
    const result = await performAction(
      { anonymous: true, input: anyInput },
      async () => {
        throw new AppError(code, `the ${code} detail`);
      },
      {},
      null,
      NO_SESSION,
    );
    const error = refusal(result);
    expect(error).toMatchObject({ status, title, detail: `the ${code} detail` });
    // Unavailable is nobody's fault: it says when to try again, as the API's Retry-After does.
    if (code === 'unavailable') expect(error.retryAfterSeconds).toBe(5);
    else expect(error.retryAfterSeconds).toBeUndefined();
  });

  it('says when to come back after a rate limit, and lists a validation error’s fields (and lines)', async () => {
    const limited = await performAction(
      { anonymous: true, input: anyInput },
      async () => {
        throw rateLimited('Too many attempts.', 90.5);
      },
      {},
      null,
      NO_SESSION,
    );
    expect(refusal(limited)).toEqual({
      status: 429,
      title: 'Too Many Requests',
      detail: 'Too many attempts.',
      retryAfterSeconds: 91,
    });
    const lines = [
      { parameter: 'amount', line: 2, detail: 'is not a number' },
      { parameter: 'month', line: 3, detail: 'is not a month' },
    ];
    const invalid = await performAction(
      { anonymous: true, input: anyInput },
      async () => {
        throw new ValidationError(lines);
      },
      {},
      null,
      NO_SESSION,
    );
    expect(refusal(invalid)).toEqual({
      status: 400,
      title: 'Invalid request',
      detail: 'amount: is not a number; month: is not a month',
      errors: lines,
    });
  });

  it('answers a database that is not there as unavailable, and lets a bug through to the error page', async () => {
    const outage = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const down = await performAction(
      { anonymous: true, input: anyInput },
      async () => {
        throw new Error('the query failed', { cause: outage });
      },
      {},
      null,
      NO_SESSION,
    );
    expect(refusal(down)).toMatchObject({ status: 503, title: 'Service Unavailable', retryAfterSeconds: 5 });
    const bug = new TypeError('a bug');
    const err = await thrown(
      performAction(
        { anonymous: true, input: anyInput },
        async () => {
          throw bug;
        },
        {},
        null,
        NO_SESSION,
      ),
    );
    expect(err).toBe(bug);
  });

  it('sends back the fields a form asks for with a refusal, never others', async () => {
    const result = await performAction(
      { anonymous: true, input: z.object({ email: z.string(), password: z.string().min(100) }), echo: ['email'] },
      async () => 'never',
      { email: 'ada@example.com', password: 'short' },
      null,
      NO_SESSION,
    );
    expect(result).toMatchObject({ ok: false, echo: { email: 'ada@example.com' } });
    expect(JSON.stringify(result)).not.toContain('short');
  });
});

describe('the mail an action queues', () => {
  const address = () => `action-${randomUUID().slice(0, 8)}@test.example`;
  const queue = (to: string) =>
    queueMail(t.db, { kind: 'test', to, subject: 'From an action', text: 'Hi', html: '<p>Hi</p>' });
  const rowOf = async (id: string) => (await t.db.select().from(mailOutbox).where(eq(mailOutbox.id, id)))[0];

  it('is sent once the action succeeds: the wrapper kicks the sender once', async () => {
    const { session } = await signedIn();
    const to = address();
    let id = '';
    const result = await performAction(
      { input: anyInput },
      async () => {
        id = await queue(to);
        return 'queued';
      },
      [],
      null,
      session,
    );
    expect(result).toEqual({ ok: true, data: 'queued' });
    await settleBackgroundTasks();
    expect(mail.sink.to(to)).toHaveLength(1);
    expect(await rowOf(id)).toMatchObject({ attempts: 1, sentAt: expect.any(Date) });
  });

  it('is sent when the action ends in a redirect (signing in, a new password)', async () => {
    const to = address();
    const err = await thrown(
      performAction(
        { anonymous: true, input: anyInput },
        async () => {
          await queue(to);
          redirect('/login?reset=done');
        },
        {},
        null,
        NO_SESSION,
      ),
    );
    expect(err?.digest).toMatch(/^NEXT_REDIRECT;\w+;\/login\?reset=done;/);
    await settleBackgroundTasks();
    expect(mail.sink.to(to)).toHaveLength(1);
  });

  it('is not kicked by a refused action', async () => {
    const to = address();
    let id = '';
    const result = await performAction(
      { anonymous: true, input: anyInput },
      async () => {
        id = await queue(to);
        throw new AppError('conflict', 'refused after queuing');
      },
      {},
      null,
      NO_SESSION,
    );
    expect(refusal(result).status).toBe(409);
    await settleBackgroundTasks();
    expect(mail.sink.to(to)).toHaveLength(0);
    expect(await rowOf(id)).toMatchObject({ attempts: 0, sentAt: null });
  });
});
