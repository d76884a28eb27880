#!/usr/bin/env node
// The production server behind `npm start`: Next.js's request handler on a plain Node HTTP server, so that
// every request can carry the caller's real TCP address (the per-address rate limit needs it and Next.js
// route handlers cannot see the socket). The address travels in a header signed with a key made afresh for
// this process, so a copy a client sends is replaced here and, under any other server, believed nowhere.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import compression from 'compression';
import next from 'next';
import pino from 'pino';
import {
  BODY_BYTES_HEADER,
  CLIENT_ADDRESS_HEADER,
  LISTEN_HOST_VARIABLE,
  STAMP_SECRET_VARIABLE,
  signAddress,
} from '../lib/platform/own-server.mjs';

const MALFORMED_PATH_HEADER = 'x-portal-malformed-path'; // lib/http/malformed-path.ts

/**
 * Next.js answers a path that is not valid percent-encoded UTF-8 (`/api/v1/%FF`) with a bare 500 before any
 * of our code runs. Such a request goes to the API's catch-all instead, flagged, which answers 400
 * problem+json with the rate-limit headers; any other path to a page that does not exist (404).
 */
function routeMalformedPath(req) {
  delete req.headers[MALFORMED_PATH_HEADER];
  const [pathname, query] = (req.url ?? '/').split(/\?(.*)/s);
  try {
    decodeURIComponent(pathname);
  } catch {
    const api = pathname.startsWith('/api/');
    if (api) req.headers[MALFORMED_PATH_HEADER] = '1';
    req.url = `${api ? '/api/malformed-path' : '/malformed-path'}${query ? `?${query}` : ''}`;
  }
}

const { values } = parseArgs({
  options: { port: { type: 'string', short: 'p' }, hostname: { type: 'string', short: 'H' } },
});
const port = Number(values.port ?? process.env.PORT ?? 3000);
// Loopback unless told otherwise. HOST, not HOSTNAME: shells and containers set HOSTNAME to the machine's name.
const hostname = values.hostname || process.env.HOST || '127.0.0.1';
process.env.NODE_ENV = 'production';
// Before Next.js loads the app, which reads both (lib/platform/env.ts ownServer): never inherited, never configured.
const stampSecret = randomBytes(32).toString('base64url');
process.env[STAMP_SECRET_VARIABLE] = stampSecret;
process.env[LISTEN_HOST_VARIABLE] = hostname;

// Next.js's own notion of its origin: proxy.ts's request URLs use localhost, and a rewrite to another origin
// would be proxied over HTTP instead of served in process.
const app = next({ dev: false, dir: path.resolve(import.meta.dirname, '..'), hostname: 'localhost', port });
const handle = app.getRequestHandler();
await app.prepare();

/**
 * br or gzip, as Accept-Encoding prefers, for text answers of 1 KiB or more and every streamed one (an export
 * has no length to compare): brotli at quality 4, which packs JSON and CSV tighter than gzip for less CPU.
 * NDJSON is text too, though the `compressible` list does not know it. Next.js drops Content-Length, so the
 * app states a body's length in BODY_BYTES_HEADER, removed here. Next.js's own gzip is off (next.config.mjs);
 * on Vercel the platform compresses instead.
 */
const COMPRESS_FROM_BYTES = 1024;
const compress = compression({
  threshold: COMPRESS_FROM_BYTES,
  filter: (req, res) => {
    const bytes = res.getHeader(BODY_BYTES_HEADER);
    res.removeHeader(BODY_BYTES_HEADER);
    if (bytes !== undefined && Number(bytes) < COMPRESS_FROM_BYTES) return false;
    const type = String(res.getHeader('Content-Type'));
    return compression.filter(req, res) || /^application\/x-ndjson\b/.test(type);
  },
});

const server = createServer((req, res) => {
  req.headers[CLIENT_ADDRESS_HEADER] = signAddress(req.socket.remoteAddress ?? 'unknown', stampSecret);
  routeMalformedPath(req);
  compress(req, res, () => handle(req, res));
});
// The app logs through lib/platform/log.ts; this plain-JS entry point only says where it listens, in the same format.
const log = pino({ base: { service: 'publisher-portal' } });
server.once('error', (err) => {
  log.fatal(
    { host: hostname, port, code: err.code },
    `cannot listen on ${hostname}:${port} (${err.code ?? err.message})`,
  );
  process.exit(1);
});
server.listen(port, hostname, () => {
  const shown = ['0.0.0.0', '::'].includes(hostname)
    ? 'localhost'
    : hostname.includes(':')
      ? `[${hostname}]`
      : hostname;
  const url = `http://${shown}:${port}`;
  log.info({ url, host: hostname }, `Publisher Portal ready on ${url}`);
});

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    server.close();
    process.exit(0);
  });
}
