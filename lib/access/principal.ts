import type { AccountSites } from './site-access';

/**
 * Who is asking. Route handlers build it from an API key, dashboard pages and server actions from the
 * session (the command line acts as the account it names);
 * every service takes it first and enforces scope itself, so no door can see more than another.
 */
export interface Principal {
  /** The account acted for: the spec's `userId`, which owns sites, rows and keys. */
  userId: string;
  /** The account's kind: a publisher's, or the operator's (platform admins). */
  role: 'publisher' | 'admin';
  /** The person acting, with a session; absent for an API key (which acts as the account) and the CLI. */
  personId?: string;
  /** That person's role in the account (lib/access/roles.ts). */
  memberRole?: MemberRole;
  /** Sites a site-scoped API key or a limited Viewer may read; null for the whole account. */
  siteScope: string[] | null;
  via: 'apiKey' | 'session' | 'commandLine';
  keyId?: string;
  /** Set when an admin is looking at this publisher's dashboard: the admin's person id; nothing may be written. */
  viewedBy?: string;
  /** The client's address as the door determined it (lib/http/client-address.ts), for the activity log. */
  clientAddress?: string;
  /** Set for one request only: what it read once of each account (forOneRequest in lib/access/site-access.ts). */
  oneRequest?: Map<string, Promise<AccountSites>>;
}

export type MemberRole = 'owner' | 'admin' | 'finance' | 'viewer';

/** The command line (import, seed, statements): acts on any account, as no particular person. */
export const COMMAND_LINE: Principal = { userId: '', role: 'admin', siteScope: null, via: 'commandLine' };
