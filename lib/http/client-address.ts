import { env } from '@/lib/env';

/**
 * Set by our own server (scripts/serve.mjs) from the TCP connection, after removing any copy the client
 * sent, so it cannot be forged. Behind a proxy that we trust (TRUST_PROXY=1, e.g. on Vercel) the proxy's
 * X-Forwarded-For is used instead: its first entry is the client as the proxy saw it.
 */
export const CLIENT_ADDRESS_HEADER = 'x-portal-client-address';

export function clientAddress(request: Request): string {
  if (env().TRUST_PROXY) {
    const forwarded = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  return request.headers.get(CLIENT_ADDRESS_HEADER)?.trim() || 'unknown';
}
