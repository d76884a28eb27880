import { env } from '@/lib/platform/env';

/**
 * This server's origin as the client reached it, for what the answers name: the OpenAPI document's servers and
 * the curl commands at /docs. X-Forwarded-Host and -Proto count only behind a proxy the deployment trusts
 * (TRUST_PROXY), as X-Forwarded-For does: otherwise any caller could make a cached, public document name its
 * own host as the API's server. `url`, the request's, stands in for a missing Host.
 */
export function originOf(headers: Headers, url?: string): string {
  const proxied = env().TRUST_PROXY > 0;
  const forwarded = (name: string) => (proxied ? headers.get(name) : null);
  const host =
    forwarded('x-forwarded-host') ?? headers.get('host') ?? (url ? new URL(url).host : undefined) ?? 'localhost:3000';
  const proto =
    forwarded('x-forwarded-proto') ?? (host.startsWith('localhost') || host.startsWith('127.') ? 'http' : 'https');
  return `${proto}://${host}`;
}
