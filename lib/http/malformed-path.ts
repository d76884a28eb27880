/**
 * Set by the production server (scripts/serve.mjs) on a request whose path is not valid percent-encoded
 * UTF-8, sent on to the API's catch-all route, which answers 400 (lib/http/api-route.ts unknownApiPath).
 * The server drops any copy a client sends.
 */
export const MALFORMED_PATH_HEADER = 'x-portal-malformed-path';
