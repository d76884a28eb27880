// What our production server (scripts/serve.mjs, plain JS) tells the app running inside it. Shared by both, so
// that the stamp is written and checked by one rule.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The request header that carries the caller's address, stamped by our server: `<address> <signature>`. */
export const CLIENT_ADDRESS_HEADER = 'x-portal-client-address';

/**
 * Where our server puts the key it signs stamps with: random, made afresh by each server process before
 * Next.js loads, never configured. Without it (`next start`, Vercel, any other server) no stamp is believed.
 */
export const STAMP_SECRET_VARIABLE = 'PORTAL_ADDRESS_STAMP_SECRET';

/** Where our server says which address it listens on (the demo gate needs it; `next start` does not say). */
export const LISTEN_HOST_VARIABLE = 'PORTAL_LISTEN_HOST';

/**
 * The length of an answer's body, which Next.js does not pass on as Content-Length: our server reads it to
 * leave small answers uncompressed, and removes it before the headers go out.
 */
export const BODY_BYTES_HEADER = 'x-portal-body-bytes';

const signature = (address, secret) => createHmac('sha256', secret).update(address).digest('base64url');

/** The header value that vouches for `address` under `secret`. */
export function signAddress(address, secret) {
  return `${address} ${signature(address, secret)}`;
}

/** The address a stamp vouches for, or null when it is missing, malformed or signed with another key. */
export function verifiedAddress(stamp, secret) {
  if (!stamp || !secret) return null;
  const space = stamp.lastIndexOf(' ');
  if (space <= 0) return null;
  const address = stamp.slice(0, space);
  const given = Buffer.from(stamp.slice(space + 1));
  const expected = Buffer.from(signature(address, secret));
  return given.length === expected.length && timingSafeEqual(given, expected) ? address : null;
}
