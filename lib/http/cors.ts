import { env } from '@/lib/platform/env';
import { varyOn } from './vary';

/**
 * Cross-origin calls from browsers. The OpenAPI document is readable from any origin (it is public and the
 * same for everyone); the rest of the API only from the origins in CORS_ORIGINS (none by default), since its
 * answers are an account's figures. No credentials mode: keys travel in headers, never in cookies.
 */
export type CorsPolicy = 'allow-list' | 'any-origin';

/** Response headers beyond the CORS-safelisted ones that a page's script may read. */
export const EXPOSED_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-Request-Id',
  'X-Total-Rows',
  'X-Total-Pages',
  'Link',
  'Retry-After',
  'Content-Disposition',
].join(', ');

/** Request headers a page may send beyond the safelisted ones: the key, and the media types. */
const ALLOWED_REQUEST_HEADERS = 'X-Api-Key, Authorization, Content-Type, Accept';

/** How long a browser may reuse a preflight's answer, in seconds. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/** A CORS preflight: the browser asking whether it may send a request, not the request itself. */
export function isPreflight(request: Request): boolean {
  return (
    request.method === 'OPTIONS' &&
    request.headers.has('origin') &&
    request.headers.has('access-control-request-method')
  );
}

/**
 * The CORS headers of any answer: `*` under the any-origin policy; otherwise the request's Origin echoed
 * when it is allowed, and `Vary: Origin` always, so that a cache never gives one origin's answer to another.
 */
export function setCorsHeaders(request: Request, headers: Headers, policy: CorsPolicy): void {
  let allowed: string | null = null;
  if (policy === 'any-origin') {
    allowed = '*';
  } else {
    varyOn(headers, 'Origin');
    const origin = request.headers.get('origin');
    if (origin && env().CORS_ORIGINS.includes(origin)) allowed = origin;
  }
  if (!allowed) return;
  headers.set('Access-Control-Allow-Origin', allowed);
  headers.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
}

/**
 * The answer to a preflight: 204 with the methods and headers a page may use when its origin is allowed
 * (setCorsHeaders set Access-Control-Allow-Origin), the same 204 without them when not, so the browser
 * refuses. It spends no request of any budget: nothing is served, and a page's calls would otherwise cost
 * twice.
 */
export function preflightResponse(headers: Headers, allow: string): Response {
  if (headers.has('Access-Control-Allow-Origin')) {
    headers.set('Access-Control-Allow-Methods', allow);
    headers.set('Access-Control-Allow-Headers', ALLOWED_REQUEST_HEADERS);
    headers.set('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_SECONDS));
  }
  return new Response(null, { status: 204, headers });
}
