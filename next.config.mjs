/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite ships a WASM build of PostgreSQL that must be loaded from node_modules at run time, not bundled.
  serverExternalPackages: ['@electric-sql/pglite'],
  poweredByHeader: false,
  // Migrations are read from disk at start-up; make sure serverless bundles (Vercel) carry them.
  outputFileTracingIncludes: { '/**': ['./db/migrations/**/*'] },
  // The dev server logs request URLs; the legacy feed carries its key in `?apiKey=`, which must never be logged.
  logging: { incomingRequests: { ignore: [/[?&]apikey=/i] } },
};

export default nextConfig;
