import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import { clientAddress } from '@/lib/http/client-address';
import { userForSession, type SessionUser } from '@/lib/services/sessions';

/**
 * The dashboard's side of sessions: the cookie and the signed-in user of the current request. The API never
 * reads this cookie; it only accepts API keys.
 */
export const SESSION_COOKIE = 'portal_session';

/** The signed-in user, looked up once per request however many components ask. */
export const currentUser = cache(async (): Promise<SessionUser | null> => {
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  return token ? userForSession(token) : null;
});

/** For pages and actions: the signed-in user, or a redirect to the sign-in page. */
export async function requireUser(): Promise<SessionUser> {
  const user = await currentUser();
  if (!user) redirect('/login');
  return user;
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

/** A path inside this site to return to after signing in; anything else (another host) becomes "/". */
export function safeNextPath(next: unknown): string {
  return typeof next === 'string' && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\')
    ? next
    : '/';
}
