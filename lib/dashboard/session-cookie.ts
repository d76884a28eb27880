/** The dashboard session's cookie: set and read by lib/dashboard/session.ts, checked for presence by proxy.ts. */
export const SESSION_COOKIE = 'portal_session';
