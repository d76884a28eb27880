#!/usr/bin/env node
// `npm start`: serve a production build, building it first when there is none or the sources are newer.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const buildId = path.join(root, '.next', 'BUILD_ID');
const sources = ['app', 'components', 'proxy.ts', 'postcss.config.mjs', 'tsconfig.json', 'scripts/serve.mjs', 'lib', 'db', 'instrumentation.ts', 'next.config.mjs', 'package.json', 'package-lock.json'];

function newestMtime(p) {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs.readdirSync(p).reduce((max, name) => Math.max(max, newestMtime(path.join(p, name))), stat.mtimeMs);
}

const next = path.join(root, 'node_modules', '.bin', 'next');
const builtAt = fs.existsSync(buildId) ? fs.statSync(buildId).mtimeMs : 0;
if (builtAt < Math.max(...sources.map((s) => newestMtime(path.join(root, s))))) {
  console.log(builtAt ? 'Sources changed since the last build; rebuilding…' : 'No production build yet; building…');
  const build = spawnSync(next, ['build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
// Our own server (scripts/serve.mjs) rather than `next start`: it stamps each request with the caller's address.
const server = spawnSync(process.execPath, [path.join(root, 'scripts', 'serve.mjs'), ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(server.status ?? 0);
