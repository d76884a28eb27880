/** The dashboard session's cookie: set and read by lib/auth/session.ts, checked for presence by proxy.ts. */
export const SESSION_COOKIE = 'portal_session';
