/**
 * Tests stand in for our production server (scripts/serve.mjs): this process gets a stamp key the way serve.mjs
 * gives its own, and requests carry addresses signed with it. A header written without this helper is what a
 * client could send himself, and the app must ignore it.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { CLIENT_ADDRESS_HEADER, STAMP_SECRET_VARIABLE, signAddress } from '@/lib/platform/own-server.mjs';

process.env[STAMP_SECRET_VARIABLE] ||= randomBytes(32).toString('base64url');

/** The key our server would sign with in this process. */
export const stampSecret = (): string => process.env[STAMP_SECRET_VARIABLE]!;

/** The header our server would add for a caller at `address`. */
export function stamped(address: string): Record<string, string> {
  return { [CLIENT_ADDRESS_HEADER]: signAddress(address, stampSecret()) };
}

/** A client's own forgery of that header: the right shape, no valid signature. */
export function forgedStamp(address: string): Record<string, string> {
  return { [CLIENT_ADDRESS_HEADER]: signAddress(address, randomBytes(32).toString('base64url')) };
}

const hex = () => randomInt(0x10000).toString(16);

/** A caller of its own: an address in a /64 of the documentation range (2001:db8::/32) no other call gets. */
export function newClientAddress(): string {
  return `2001:db8:${hex()}:${hex()}::${hex()}`;
}
