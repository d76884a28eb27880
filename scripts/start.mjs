#!/usr/bin/env node
// `npm start`: serve a production build, building it first when there is none or the sources are newer.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { buildIfNeeded, root } from './production-build.mjs';
import { SERVER_NODE_FLAGS } from './server-flags.mjs';

const status = buildIfNeeded();
if (status !== 0) process.exit(status);
// Our own server (scripts/serve.mjs) rather than `next start`: it stamps each request with the caller's address.
const server = spawnSync(
  process.execPath,
  [...SERVER_NODE_FLAGS, path.join(root, 'scripts', 'serve.mjs'), ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
process.exit(server.status ?? 0);
