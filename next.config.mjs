/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite ships a WASM build of PostgreSQL that must be loaded from node_modules at run time, not bundled.
  serverExternalPackages: ['@electric-sql/pglite'],
  poweredByHeader: false,
};

export default nextConfig;
