/**
 * Who is asking. Route handlers build it from an API key, dashboard pages and server actions from the
 * session (the operator CLI acts as the account it names);
 * every service takes it first and enforces scope itself, so no door can see more than another.
 */
export interface Principal {
  userId: string;
  role: 'publisher' | 'admin';
  /** Sites a site-scoped API key may read; null for account-level keys and sessions. */
  siteScope: string[] | null;
  via: 'apiKey' | 'session' | 'operator';
  keyId?: string;
  /** Set when an admin is looking at this publisher's dashboard: the admin's id; nothing may be written. */
  viewedBy?: string;
  /** The client's address as the door determined it (lib/http/client-address.ts), for the activity log. */
  clientAddress?: string;
}

/** The operator at the command line (import, seed): acts on any account, as no particular user. */
export const OPERATOR: Principal = { userId: '', role: 'admin', siteScope: null, via: 'operator' };
