import { NextResponse, type NextRequest } from 'next/server';
import { SESSION_COOKIE } from '@/lib/dashboard/session-cookie';
import { databaseAnswers } from '@/db/health';
import { databaseMisconfiguration } from '@/lib/platform/deployment';
import { newNonce, pageSecurityHeaders } from '@/lib/http/security-headers';

/** Pages anyone may see; every other page needs a session. */
const PUBLIC_PAGES = /^\/(?:login|forgot-password|reset-password|invitation|docs|malformed-path|unavailable)(?:\/|$)/;
/** Pages whose URL holds a secret (an e-mailed link's token): no Referer may carry it anywhere (OWASP Forgot Password). */
const SECRET_URL_PAGES = /^\/(?:reset-password|invitation)\//;
/** Pages that never touch the database. */
const WITHOUT_DATABASE = /^\/(?:docs|malformed-path|unavailable)(?:\/|$)/;

/**
 * A deployment without a database (lib/platform/deployment.ts), or whose database does not answer right now
 * (db/health.ts), shows every page as the app's own 503 page. Then
 * every page's security headers, with a fresh CSP nonce that Next.js reads from the request and puts on its
 * scripts. And a quick turn-away for dashboard pages without a session cookie, before any rendering: it only
 * checks that the cookie exists; every page still verifies the session itself (lib/dashboard/session.ts requireUser).
 */
export async function proxy(request: NextRequest) {
  const nonce = newNonce();
  const security = pageSecurityHeaders(nonce, { dev: process.env.NODE_ENV === 'development' });
  const forward = { request: { headers: withNonce(request.headers, nonce, security) } };
  const response = (await databaseMissing(request))
    ? NextResponse.rewrite(unavailablePage(request), { ...forward, status: 503 })
    : mayEnter(request)
      ? NextResponse.next(forward)
      : redirectToSignIn(request);
  for (const [name, value] of Object.entries(security)) response.headers.set(name, value);
  if (SECRET_URL_PAGES.test(request.nextUrl.pathname)) response.headers.set('Referrer-Policy', 'no-referrer');
  if (response.status === 503) response.headers.set('Retry-After', '5');
  return response;
}

/** This server's /unavailable page; nextUrl, not request.url, whose host may not be the one it listens on. */
function unavailablePage(request: NextRequest) {
  const target = request.nextUrl.clone();
  target.pathname = '/unavailable';
  target.search = '';
  return target;
}

async function databaseMissing(request: NextRequest): Promise<boolean> {
  if (databaseMisconfiguration()) return true;
  return !WITHOUT_DATABASE.test(request.nextUrl.pathname) && !(await databaseAnswers());
}

function mayEnter(request: NextRequest): boolean {
  return PUBLIC_PAGES.test(request.nextUrl.pathname) || request.cookies.has(SESSION_COOKIE);
}

function withNonce(incoming: Headers, nonce: string, security: Record<string, string>): Headers {
  const headers = new Headers(incoming);
  headers.set('x-nonce', nonce);
  headers.set('Content-Security-Policy', security['Content-Security-Policy']);
  return headers;
}

function redirectToSignIn(request: NextRequest) {
  const login = new URL('/login', request.url);
  const next = request.nextUrl.pathname + request.nextUrl.search;
  if (next !== '/') login.searchParams.set('next', next);
  return NextResponse.redirect(login);
}

export const config = {
  // Every page and dashboard route; not the API (lib/http/api-route.ts sets its headers), Next's own files or
  // static assets. Prefetches skip it: they render nothing a nonce is needed for.
  matcher: [
    {
      source: '/((?!api/|_next/static|_next/image|favicon\\.ico|.*\\.(?:svg|png|ico|txt)$).*)',
      missing: [{ type: 'header', key: 'next-router-prefetch' }],
    },
  ],
};
