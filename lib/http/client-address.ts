import ipaddr from 'ipaddr.js';
import { env, ownServer } from '@/lib/platform/env';
import { CLIENT_ADDRESS_HEADER, verifiedAddress } from '@/lib/platform/own-server.mjs';

/**
 * The caller's address, for the per-address rate limit and the sign-in throttle. Nothing a client sends is
 * believed unless the deployment vouches for it:
 * - behind TRUST_PROXY proxies that append to X-Forwarded-For (Vercel's edge, a load balancer), the entry that
 *   many hops from its right: the client as the outermost trusted proxy saw it. Entries further left are
 *   whatever the client wrote.
 * - otherwise the address our own server (scripts/serve.mjs) stamped from the TCP connection, signed with a key
 *   made afresh by each server process: a stamp a client writes himself has no valid signature and is ignored.
 * - neither (`next start` without TRUST_PROXY): "unknown", one bucket shared by every caller, which nobody can
 *   leave by choosing headers.
 */
export { CLIENT_ADDRESS_HEADER };

/** Every caller without an address a proxy or our server vouches for. */
export const UNKNOWN_ADDRESS = 'unknown';

/**
 * One bucket name per client: IPv4 in dotted decimal (IPv4-mapped IPv6 unwrapped); IPv6 per /64, the block
 * one subscriber usually gets, so that the 2^64 addresses of one line are one client. Ports and brackets a
 * proxy may add (`[2001:db8::1]:443`, `192.0.2.1:5000`) are dropped. Anything else is no address (null).
 */
export function addressBucket(text: string): string | null {
  const address = parseAddress(text);
  if (!address || address.kind() === 'ipv4') return address?.toString() ?? null;
  const [a, b, c, d] = (address as ipaddr.IPv6).parts;
  return `${new ipaddr.IPv6([a, b, c, d, 0, 0, 0, 0]).toString()}/64`;
}

/** An address as a proxy or our server wrote it, without port or brackets; IPv4-mapped IPv6 unwrapped. */
function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  let candidate = text.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(candidate);
  if (bracketed) candidate = bracketed[1];
  else if (/^[\d.]+:\d+$/.test(candidate)) candidate = candidate.slice(0, candidate.lastIndexOf(':'));
  if (!ipaddr.IPv4.isValidFourPartDecimal(candidate) && !ipaddr.IPv6.isValid(candidate)) return null;
  return ipaddr.process(candidate);
}

/** The entry `hops` from the right of X-Forwarded-For, or null when the list is shorter. */
function forwardedEntry(forwardedFor: string | null, hops: number): string | null {
  const entries = (forwardedFor ?? '').split(',');
  if (!forwardedFor || entries.length < hops) return null;
  return entries[entries.length - hops];
}

/** What this deployment vouches for: proxies that append to X-Forwarded-For, and our server's stamp key. */
export interface AddressTrust {
  proxyHops: number;
  stampSecret: string | undefined;
}

/** TRUST_PROXY (read once by env()) and the key our server set for this process, if it did. */
const deploymentTrust = (): AddressTrust => ({
  proxyHops: env().TRUST_PROXY,
  stampSecret: ownServer.stampSecret(),
});

/** The caller's address as `read` words it (a bucket, or the exact address), or null. */
function vouchedAddress(
  request: { headers: Pick<Headers, 'get'> },
  trust: AddressTrust,
  read: (text: string) => string | null,
): string | null {
  if (trust.proxyHops > 0) {
    const entry = forwardedEntry(request.headers.get('x-forwarded-for'), trust.proxyHops);
    const forwarded = entry && read(entry);
    if (forwarded) return forwarded;
  }
  const stamped = verifiedAddress(request.headers.get(CLIENT_ADDRESS_HEADER), trust.stampSecret);
  return stamped && read(stamped);
}

/** The caller's address bucket; tests pass a trust of their own. */
export function clientAddress(
  request: { headers: Pick<Headers, 'get'> },
  trust: AddressTrust = deploymentTrust(),
): string {
  return vouchedAddress(request, trust, addressBucket) ?? UNKNOWN_ADDRESS;
}

/** The caller's exact address, for the activity log (the limits count per bucket; a log names the address). */
export function exactClientAddress(
  request: { headers: Pick<Headers, 'get'> },
  trust: AddressTrust = deploymentTrust(),
): string {
  return vouchedAddress(request, trust, (text) => parseAddress(text)?.toString() ?? null) ?? UNKNOWN_ADDRESS;
}

/** What a server that cannot tell its callers apart says at start-up, or null when it can. */
export function unknownAddressWarning(trust: AddressTrust = deploymentTrust()): string | null {
  if (trust.proxyHops > 0 || trust.stampSecret) return null;
  return (
    'Client addresses are unknown: this server was not started by npm start and TRUST_PROXY is not set, so ' +
    'every caller without a valid API key shares one rate limit and one sign-in throttle. Behind a proxy, set ' +
    'TRUST_PROXY to the number of proxies that append to X-Forwarded-For (1 on Vercel).'
  );
}
