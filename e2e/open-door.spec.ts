import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { DEMO_MEMBERS, DEMO_USERS } from '../db/seed-data';
import { childEnv, e2ePort, makeTempDir, ROOT, type StartServerOptions, startServer } from './support/servers';

/**
 * Issue 18 point 3, as a newcomer meets it: `npm start` (scripts/start.mjs) on a fresh embedded database, which
 * it seeds with the demo accounts, listens on loopback only; on every interface it refuses to start until the
 * demo passwords are changed or ALLOW_DEMO=1; `next start`, which does not say where it listens, refuses too.
 * The tests run in order on one database folder.
 */
test.describe.configure({ mode: 'serial' });

const PORT = e2ePort(9);
// The demo accounts' people and the teams' members (db/seed-data.ts), sorted, and as the refusal lists them.
const DEMO = [...DEMO_USERS, ...DEMO_MEMBERS].map((u) => u.email).sort();
const DEMO_LISTED = DEMO.join(', ').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const NEW_PASSWORD = 'not-the-demo-password-any-more';
let workDir: string;
let database: { PGLITE_DIR: string };

/** `npm start` on that folder; ready when the sign-in page answers. */
const npmStart = (env: Record<string, string> = {}, options: Partial<StartServerOptions> = {}) =>
  startServer({
    name: 'npm-start',
    entry: 'start',
    hostname: null,
    port: PORT,
    database,
    env,
    ready: { path: '/login', status: 200 },
    timeoutMs: 150_000,
    ...options,
  });

/** This machine's first address beyond loopback, if it has one. */
function externalAddress(): string | undefined {
  return Object.values(os.networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
}

/** `npm run password -- --email <email>` with the new password piped on standard input. */
async function changePassword(email: string): Promise<{ code: number | null; output: string }> {
  const tsx = path.join(ROOT, 'node_modules', '.bin', 'tsx');
  const child = spawn(tsx, ['scripts/cli.ts', 'password', '--email', email], { cwd: ROOT, env: childEnv(database) });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stdin.end(`${NEW_PASSWORD}\n`);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, output };
}

test.beforeAll(() => {
  workDir = makeTempDir('open-door');
  database = { PGLITE_DIR: path.join(workDir, 'pglite') };
});

test.afterAll(() => {
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

test('npm start listens on 127.0.0.1 by default, even where HOSTNAME names the machine', async () => {
  test.setTimeout(180_000);
  const server = await npmStart({ HOSTNAME: os.hostname() });
  try {
    expect(server.output()).toContain(`"url":"http://127.0.0.1:${PORT}"`);
    expect((await fetch(`http://127.0.0.1:${PORT}/login`)).status).toBe(200);
    const external = externalAddress();
    test
      .info()
      .annotations.push({ type: 'beyond loopback', description: external ?? 'this machine has no other address' });
    if (external) {
      const error = await fetch(`http://${external}:${PORT}/login`, { signal: AbortSignal.timeout(5_000) }).then(
        () => null,
        (err: Error) => err.cause as NodeJS.ErrnoException,
      );
      expect(error?.code, `reached ${external}:${PORT} from outside loopback`).toBe('ECONNREFUSED');
    }
  } finally {
    await server.stop();
  }
});

const REFUSAL = new RegExp(
  `^Refusing to start: the server is set to listen on 0\\.0\\.0\\.0 \\(HOST\\), beyond this machine, and ${DEMO_LISTED} ` +
    'still have the published demo password\\. Change them \\(npm run password -- --email admin@example\\.com\\), ' +
    'listen on 127\\.0\\.0\\.1 only \\(unset HOST\\), or set ALLOW_DEMO=1 to serve the demo on purpose\\.$',
  'm',
);

test('HOST=0.0.0.0 on the demo data: it refuses to start, in one line that says what to do', async () => {
  test.setTimeout(120_000);
  const refused = await npmStart({ HOST: '0.0.0.0' }).then(
    (server) => server.stop().then(() => 'it started'),
    (err: Error) => err.message,
  );
  expect(refused).toMatch(/^server npm-start exited \(1\) before it was ready:/);
  expect(refused).toMatch(REFUSAL);
  expect(refused.match(/Refusing to start/g)).toHaveLength(1);
});

test('next start on the demo data refuses too: it does not say where it listens', async () => {
  test.setTimeout(120_000);
  const refused = await npmStart({}, { name: 'next-start', entry: 'next-start' }).then(
    (server) => server.stop().then(() => 'it started'),
    (err: Error) => err.message,
  );
  expect(refused).toMatch(/exited \(1\) before it was ready:/);
  expect(refused).toMatch(
    new RegExp(
      '^Refusing to start: this server was not started by npm start, so it may listen on every interface, and ' +
        `${DEMO_LISTED} still have the published demo password\\. .*ALLOW_DEMO=1.*$`,
      'm',
    ),
  );
});

test('with ALLOW_DEMO=1 it starts on every interface, demo data and all', async () => {
  test.setTimeout(120_000);
  const server = await npmStart({ HOST: '0.0.0.0', ALLOW_DEMO: '1' });
  try {
    expect(server.output()).not.toContain('Refusing to start');
    expect((await fetch(`http://127.0.0.1:${PORT}/login`)).status).toBe(200);
  } finally {
    await server.stop();
  }
});

test('once the demo passwords are changed (npm run password) it starts on every interface', async () => {
  test.setTimeout(240_000); // eight demo people, one `npm run password` each
  for (const email of DEMO) {
    const { code, output } = await changePassword(email);
    expect(code, output).toBe(0);
    expect(output).toContain(`Password of ${email} changed`);
  }
  const server = await npmStart({ HOST: '0.0.0.0' });
  try {
    expect(server.output()).not.toContain('Refusing to start');
    expect((await fetch(`http://127.0.0.1:${PORT}/login`)).status).toBe(200);
  } finally {
    await server.stop();
  }
});
