import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { promisify } from 'node:util';
import ipaddr from 'ipaddr.js';
import { env } from '@/lib/platform/env';
import { badRequest } from '@/lib/shared/errors';

const lookupAll = promisify(dnsLookup);

/**
 * Where a webhook may go (README, "Webhooks"): an https URL without credentials whose host resolves only to
 * public unicast addresses: no loopback, private, link-local (the cloud metadata service), carrier-grade NAT,
 * multicast or reserved one. WEBHOOK_ALLOW_PRIVATE=1 lifts both rules, for tests and a laptop's receiver.
 */
const allowsPrivate = () => env().WEBHOOK_ALLOW_PRIVATE;

/** Why an address may not be connected to, or null when it may (ipaddr.js's ranges: only `unicast` is public). */
function refusedAddress(address: string): string | null {
  if (allowsPrivate()) return null;
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const range = ipaddr.process(address).range();
  return range === 'unicast' ? null : `${address} is a ${range} address`;
}

/** The URL, checked as far as it can be without the network: scheme, credentials, a literal address. */
function parseWebhookUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest('url', 'is not a URL: give the full address, e.g. https://hooks.example.com/portal');
  }
  const schemes = allowsPrivate() ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) throw badRequest('url', `must be an ${schemes.join(' or ')} URL`);
  if (url.username || url.password) throw badRequest('url', 'must not carry a user name or password');
  return url;
}

/** A hostname as the resolver takes it: an IPv6 literal without its brackets. */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Checks a webhook's URL when it is registered: its scheme, and every address its host resolves to now. (The
 * address is checked again at every delivery, on the connection itself: DNS may change in between.)
 */
export async function checkWebhookUrl(raw: string): Promise<string> {
  const url = parseWebhookUrl(raw);
  let addresses: LookupAddress[];
  try {
    addresses = await lookupAll(hostOf(url), { all: true });
  } catch {
    throw badRequest('url', `its host ${url.hostname} does not resolve`);
  }
  for (const { address } of addresses) {
    const refusal = refusedAddress(address);
    if (refusal)
      throw badRequest('url', `resolves to a private address (${refusal}): webhooks go to public addresses only`);
  }
  return url.href;
}

/**
 * Why a delivery may not connect to the URL's host when it is an IP literal (which Node connects to without
 * asking the resolver below), or null.
 */
export function refusedLiteral(url: string): string | null {
  const host = hostOf(new URL(url));
  return isIP(host) ? refusedAddress(host) : null;
}

/**
 * The resolver a delivery connects through (http.request's `lookup`): the addresses the host resolves to at
 * that moment, refused when any is not public, so the address checked is the one connected to.
 */
export const publicOnlyLookup: typeof dnsLookup = ((
  hostname: string,
  options: object,
  callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const refusal = addresses.map((a) => refusedAddress(a.address)).find(Boolean);
    if (refusal) return callback(Object.assign(new Error(`refused: ${refusal}`), { code: 'EADDRNOTPUBLIC' }), []);
    const all = (options as { all?: boolean }).all;
    if (all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
}) as typeof dnsLookup;
