import { createHash } from 'node:crypto';

/**
 * Conditional GETs for answers that may be cached (the OpenAPI document, the health check): a strong ETag
 * made from the representation, and 304 when If-None-Match already names it. The media type is hashed with
 * the body: the same JSON as text/plain is another representation, and a strong ETag names exactly one.
 */
function entityTag(contentType: string, body: string): string {
  const digest = createHash('sha256').update(contentType).update('\n').update(body).digest('base64url');
  return `"${digest.slice(0, 32)}"`;
}

/**
 * Whether If-None-Match names `etag` (or is `*`). Weak comparison, as RFC 9110 asks for If-None-Match: a
 * `W/` prefix the client (or a proxy) put on our tag still matches.
 */
export function noneMatchHits(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch
    .split(',')
    .map(opaque)
    .some((tag) => tag === '*' || tag === opaque(etag));
}

/**
 * A cacheable answer: the body with its ETag and `cacheControl`, or 304 without a body when the client's
 * copy is current. Only successes are cached: errors keep the API's no-store.
 */
export function cacheableResponse(body: string, request: Request, headers: Headers, cacheControl: string): Response {
  const etag = entityTag(headers.get('Content-Type') ?? '', body);
  headers.set('ETag', etag);
  headers.set('Cache-Control', cacheControl);
  if (!noneMatchHits(request.headers.get('if-none-match'), etag)) return new Response(body, { status: 200, headers });
  headers.delete('Content-Type');
  return new Response(null, { status: 304, headers });
}
