import { NextResponse, type NextRequest } from 'next/server';
import { SESSION_COOKIE } from '@/lib/auth/cookie';

/**
 * A quick turn-away for dashboard pages without a session cookie, before any rendering. It only checks that
 * the cookie exists; every page still verifies the session itself (lib/auth/session.ts requireUser).
 */
export function proxy(request: NextRequest) {
  if (request.cookies.has(SESSION_COOKIE)) return NextResponse.next();
  const login = new URL('/login', request.url);
  const next = request.nextUrl.pathname + request.nextUrl.search;
  if (next !== '/') login.searchParams.set('next', next);
  return NextResponse.redirect(login);
}

export const config = {
  // Every page but the sign-in page, the public API docs, the API, Next's own files and static assets.
  matcher: ['/((?!api/|login|docs|_next/|favicon\\.ico|.*\\.(?:svg|png|ico|txt)$).*)'],
};
