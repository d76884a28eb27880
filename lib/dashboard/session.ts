import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import { clientAddress, exactClientAddress } from '@/lib/http/client-address';
import { mustSetUpTwoFactor, type SessionOrigin, personForSession, type SessionPerson } from '@/lib/identity';
import type { Principal } from '@/lib/access';
import { VIEW_AS } from './url';
import { viewerOf } from './viewer';
import { SESSION_COOKIE } from './session-cookie';

/**
 * The dashboard's side of sessions: the cookie and the signed-in person of the current request. The API never
 * reads this cookie; it only accepts API keys.
 */

/**
 * The signed-in person acting for `accountId` (their first account when not given or not theirs), looked up
 * once per request however many components ask.
 */
export const currentPerson = cache(async (accountId?: string): Promise<SessionPerson | null> =>
  sessionPersonOf((await cookies()).get(SESSION_COOKIE)?.value, await headers(), accountId),
);

/** The person a session token signs in (acting for `accountId`), with the address the request came from. */
export async function sessionPersonOf(
  token: string | undefined,
  requestHeaders: Pick<Headers, 'get'>,
  accountId?: string,
): Promise<SessionPerson | null> {
  const person = token ? await personForSession(token, accountId) : null;
  // Where the request came from, for the activity log of what the person does.
  if (!person) return null;
  return {
    ...person,
    principal: { ...person.principal, clientAddress: exactClientAddress({ headers: requestHeaders }) },
  };
}

/**
 * For a server action (lib/dashboard/action.ts): the principal of the signed-in person in the account the page's
 * URL names (`?as=`, which the action is sent): their role there; an admin's read-only view of a publisher (every
 * write refuses it); or their first account when none is named. An account that is neither theirs nor viewable
 * is refused.
 */
export async function principalFor(person: SessionPerson, account: unknown): Promise<Principal> {
  const named = typeof account === 'string' && account ? { [VIEW_AS]: account } : {};
  const viewer = await viewerOf(person, named, { ownIsEnough: true });
  if (viewer.kind === 'refused') throw viewer.error;
  if (viewer.kind !== 'ready') throw new Error('an own principal is always ready');
  return viewer.principal;
}

/** Where a person is led when an account of theirs requires two-factor sign-in and they have none yet. */
const TWO_FACTOR_SETUP_PATH = '/settings/security?setup=two-factor';

/**
 * For pages and actions: the signed-in person (acting for `accountId`), or a redirect to the sign-in page.
 * Someone who must still set up two-factor sign-in is led to do so first; only the shell, the Security page
 * and signing out (`duringTwoFactorSetup`) serve them meanwhile.
 */
export async function requirePerson(accountId?: string, { duringTwoFactorSetup = false } = {}): Promise<SessionPerson> {
  return admitted(await currentPerson(accountId), { duringTwoFactorSetup });
}

/** requirePerson's answer for a person already looked up: them, or a redirect (to sign in, or to set up 2FA). */
export function admitted(person: SessionPerson | null, { duringTwoFactorSetup = false } = {}): SessionPerson {
  if (!person) redirect('/login');
  if (!duringTwoFactorSetup && mustSetUpTwoFactor(person)) redirect(TWO_FACTOR_SETUP_PATH);
  return person;
}

export async function setSessionCookie(token: string, expiresAt: Date) {
  (await cookies()).set(SESSION_COOKIE, token, {
    httpOnly: true,
    secure: true,
    sameSite: 'lax',
    path: '/',
    expires: expiresAt,
  });
}

/** The raw token of this request's session: the session a password change keeps while it ends the others. */
export async function currentSessionToken(): Promise<string> {
  return (await cookies()).get(SESSION_COOKIE)?.value ?? '';
}

export async function takeSessionCookie(): Promise<string | undefined> {
  const jar = await cookies();
  const token = jar.get(SESSION_COOKIE)?.value;
  jar.delete(SESSION_COOKIE);
  return token;
}

/** The caller's address in a server action, by the same rule as the API's per-address limit. */
export async function actionClientAddress(): Promise<string> {
  return clientAddress(new Request('http://portal.local/', { headers: new Headers(await headers()) }));
}

/** Where a sign-in comes from, for the session it opens: the address bucket and the browser's description. */
export async function actionOrigin(): Promise<SessionOrigin> {
  return { clientAddress: await actionClientAddress(), userAgent: (await headers()).get('user-agent') };
}

const SELF = 'http://portal.invalid';

/**
 * A path inside this site to return to after signing in; anything else (another host) becomes "/".
 * Browsers drop tabs and newlines anywhere in a URL and read a backslash as "/", so "/<tab>/evil.example"
 * and "/\evil.example" both mean "//evil.example" to them: control characters and backslashes are refused,
 * and what is left must resolve to this site. The path comes back as the URL parser writes it (non-ASCII
 * percent-encoded), so it fits in a Location header.
 */
export function safeNextPath(next: unknown): string {
  if (typeof next !== 'string' || !next.startsWith('/') || next.startsWith('//')) return '/';
  if (/[\u0000-\u001f\u007f\\]/.test(next)) return '/';
  let url: URL;
  try {
    url = new URL(next, `${SELF}/`);
  } catch {
    return '/';
  }
  if (url.origin !== SELF) return '/';
  // Resolving dot segments can itself produce "//": "/.//evil.example" has the path "//evil.example".
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.startsWith('//') ? '/' : path;
}
