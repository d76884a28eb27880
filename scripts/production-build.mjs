// Whether the production build in .next is missing or older than its sources, and building it then.
// Shared by `npm start` (scripts/start.mjs) and `npm run bench` (scripts/bench.ts) so both decide alike.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');
const buildId = path.join(root, '.next', 'BUILD_ID');
const sources = [
  'app',
  'components',
  'proxy.ts',
  'postcss.config.mjs',
  'tsconfig.json',
  'scripts/serve.mjs',
  'lib',
  'db',
  'instrumentation.ts',
  'next.config.mjs',
  'package.json',
  'package-lock.json',
];

function newestMtime(p) {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs.readdirSync(p).reduce((max, name) => Math.max(max, newestMtime(path.join(p, name))), stat.mtimeMs);
}

/** Builds when needed, printing why; returns the exit status of `next build` (0 when no build was needed). */
export function buildIfNeeded() {
  const builtAt = fs.existsSync(buildId) ? fs.statSync(buildId).mtimeMs : 0;
  if (builtAt >= Math.max(...sources.map((s) => newestMtime(path.join(root, s))))) return 0;
  console.log(builtAt ? 'Sources changed since the last build; rebuilding…' : 'No production build yet; building…');
  const next = path.join(root, 'node_modules', '.bin', 'next');
  const build = spawnSync(next, ['build'], { cwd: root, stdio: 'inherit' });
  return build.status ?? 1;
}
