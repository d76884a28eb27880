import { env } from '@/lib/env';

/**
 * Set by our own server (scripts/serve.mjs) from the TCP connection, after removing any copy the client
 * sent, so it cannot be forged. Behind a proxy that we trust (TRUST_PROXY=1, e.g. on Vercel) the proxy's
 * X-Forwarded-For is used instead: its first entry is the client as the proxy saw it.
 */
export const CLIENT_ADDRESS_HEADER = 'x-portal-client-address';

/** Longer than any IPv6 address in text form (45): a bucket name never grows with what a client sends. */
const MAX_ADDRESS_LENGTH = 64;

/** One spelling per address, so one client never gets two buckets: trimmed, lower-case, IPv4-mapped IPv6 unwrapped. */
function normalize(address: string | undefined | null): string {
  const trimmed = (address ?? '').trim().toLowerCase();
  const unwrapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(trimmed)?.[1] ?? trimmed;
  return unwrapped.slice(0, MAX_ADDRESS_LENGTH);
}

/**
 * The caller's address for the per-address rate limit. `trustProxy` defaults to the TRUST_PROXY setting
 * (read once by env()); tests pass it explicitly.
 */
export function clientAddress(request: Request, trustProxy: boolean = env().TRUST_PROXY): string {
  if (trustProxy) {
    const forwarded = normalize(request.headers.get('x-forwarded-for')?.split(',')[0]);
    if (forwarded) return forwarded;
  }
  return normalize(request.headers.get(CLIENT_ADDRESS_HEADER)) || 'unknown';
}
