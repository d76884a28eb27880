/**
 * Vercel sets VERCEL=1 in its builds. A deployment there uses PostgreSQL (DATABASE_URL): its functions have no
 * disk for an embedded database (lib/platform/deployment.ts answers 503 naming DATABASE_URL), so PGlite, 20 MB of WASM
 * and data that the tracer would put into every function and the proxy, is replaced by a stub that says so.
 * Excluding its files from the traces would not do: Turbopack applies outputFileTracingExcludes to routes
 * only, and Vercel adds the instrumentation hook's trace to every function.
 */
const onVercel = process.env.VERCEL === '1';

/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite ships a WASM build of PostgreSQL that must be loaded from node_modules at run time, not bundled.
  serverExternalPackages: onVercel ? [] : ['@electric-sql/pglite'],
  ...(onVercel && { turbopack: { resolveAlias: { '@electric-sql/pglite': './db/no-embedded-database.ts' } } }),
  // CI checks the types in a stage of its own before it builds (.ci/run sets TYPES_CHECKED=1): its build skips
  // the second check, about 30 s. Every other build checks them.
  typescript: { ignoreBuildErrors: process.env.TYPES_CHECKED === '1' },
  poweredByHeader: false,
  // Our server compresses, with brotli as well as gzip (scripts/serve.mjs); Vercel's platform does it there.
  compress: false,
  // Migrations are read from disk at start-up; make sure serverless bundles (Vercel) carry them.
  outputFileTracingIncludes: { '/**': ['./db/migrations/**/*'] },
  // The dev server logs request URLs; the legacy feed carries its key in `?apiKey=`, which must never be logged.
  logging: { incomingRequests: { ignore: [/[?&]apikey=/i] } },
};

export default nextConfig;
