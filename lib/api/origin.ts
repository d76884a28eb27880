/**
 * This server's origin as the client reached it (through a proxy too), for what the answers name: the
 * OpenAPI document's servers and the curl commands at /docs. `url`, the request's, stands in for a missing Host.
 */
export function originOf(headers: Headers, url?: string): string {
  const host =
    headers.get('x-forwarded-host') ?? headers.get('host') ?? (url ? new URL(url).host : undefined) ?? 'localhost:3000';
  const proto =
    headers.get('x-forwarded-proto') ?? (host.startsWith('localhost') || host.startsWith('127.') ? 'http' : 'https');
  return `${proto}://${host}`;
}
