export const CLIENT_ADDRESS_HEADER: 'x-portal-client-address';
export const STAMP_SECRET_VARIABLE: 'PORTAL_ADDRESS_STAMP_SECRET';
export const LISTEN_HOST_VARIABLE: 'PORTAL_LISTEN_HOST';
export const BODY_BYTES_HEADER: 'x-portal-body-bytes';
export function signAddress(address: string, secret: string): string;
export function verifiedAddress(stamp: string | null | undefined, secret: string | undefined): string | null;
