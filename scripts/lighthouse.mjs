#!/usr/bin/env node
// `npm run lighthouse`: Lighthouse scores of the dashboard's overview, signed in as demo@example.com, in
// Debian's Chromium with Lighthouse's default (mobile) preset. A measurement, not a test: it exits non-zero
// only when it cannot measure (build, server, sign-in or Lighthouse failing), never because of a score.
//
// It starts the production server itself (`scripts/start.mjs`, which builds first when the build is missing
// or older than the sources) on a free port with a fresh embedded database (seeded with the demo data),
// signs in through the page with Playwright, and hands the session cookie to Lighthouse as a header.
//
//   npm run lighthouse                       # the overview, one run
//   npm run lighthouse -- --runs 3           # three runs, the median by performance score
//   npm run lighthouse -- --path '/countries'   # .data/lighthouse/countries.report.html
//
// Reports (HTML and JSON) are written to .data/lighthouse/.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import lighthouse, { generateReport } from 'lighthouse';

const root = path.resolve(import.meta.dirname, '..');
// Debian's Chromium with the same flags as the Playwright suite (scripts/chromium.json).
const chromiumConfig = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, 'chromium.json'), 'utf8'));
const CHROMIUM = process.env.CHROMIUM_PATH ?? chromiumConfig.path;
const CHROME_FLAGS = chromiumConfig.args;
const EMAIL = 'demo@example.com';
const PASSWORD = 'demo-password';
const SESSION_COOKIE = 'portal_session';

const { values: args } = parseArgs({
  options: {
    path: { type: 'string', default: '/' },
    runs: { type: 'string', default: '1' },
  },
});
const runs = Math.max(1, Number(args.runs) || 1);

// chrome-launcher comes with Lighthouse; resolve it from there rather than relying on hoisting.
const requireFromLighthouse = createRequire(createRequire(import.meta.url).resolve('lighthouse'));
const chromeLauncher = await import(requireFromLighthouse.resolve('chrome-launcher'));

const log = (...parts) => console.error('[lighthouse]', ...parts);

async function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** True while another `next build` runs on this machine (two builds in one folder corrupt each other). */
function otherBuildRunning() {
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
      if (/next(\.js)?\s+build|next-build/.test(cmd) && Number(pid) !== process.pid) return true;
    } catch {
      // the process ended meanwhile
    }
  }
  return false;
}

/** Starts `scripts/start.mjs` in its own process group (so stopping it also stops the server it runs). */
async function startServer() {
  while (otherBuildRunning()) {
    log('another `next build` is running; waiting for it to finish…');
    await new Promise((resolve) => setTimeout(resolve, 5_000));
  }
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-lighthouse-'));
  const child = spawn(
    process.execPath,
    [path.join(root, 'scripts', 'start.mjs'), '--port', String(port), '--hostname', '127.0.0.1'],
    {
      cwd: root,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        NODE_ENV: 'production',
        NEXT_TELEMETRY_DISABLED: '1',
        PGLITE_DIR: path.join(dataDir, 'pglite'),
        DATABASE_URL: '',
        UPSTASH_REDIS_REST_URL: '',
        UPSTASH_REDIS_REST_TOKEN: '',
      },
    },
  );
  let output = '';
  const collect = (chunk) => {
    output += chunk;
    if (/building|rebuilding|error/i.test(chunk)) process.stderr.write(chunk);
  };
  child.stdout.setEncoding('utf8').on('data', collect);
  child.stderr.setEncoding('utf8').on('data', collect);
  const server = {
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          // already gone
        }
        await new Promise((resolve) => {
          const timer = setTimeout(() => {
            try {
              process.kill(-child.pid, 'SIGKILL');
            } catch {
              // already gone
            }
            resolve();
          }, 5_000);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  // A build takes minutes on a small machine; the first start also seeds the demo data.
  const deadline = Date.now() + 15 * 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output}`);
    try {
      const response = await fetch(`${server.url}/login`, { signal: AbortSignal.timeout(30_000) });
      await response.arrayBuffer();
      if (response.ok) return server;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await server.stop();
  throw new Error(`the server did not answer within 15 minutes:\n${output}`);
}

/** Signs in through the sign-in page, as a person would, and returns the session cookie's value. */
async function signIn(baseURL) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROME_FLAGS });
  try {
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${baseURL}/`);
    const cookie = (await context.cookies()).find((c) => c.name === SESSION_COOKIE);
    if (!cookie) throw new Error('signing in set no session cookie');
    return cookie.value;
  } finally {
    await browser.close();
  }
}

const ms = (value) => (value === undefined ? 'n/a' : `${Math.round(value)} ms`);
const score = (category) =>
  category?.score === null || category?.score === undefined ? 'n/a' : category.score.toFixed(2);

function summarize(lhr) {
  const a = lhr.audits;
  return {
    performance: lhr.categories.performance?.score,
    accessibility: lhr.categories.accessibility?.score,
    bestPractices: lhr.categories['best-practices']?.score,
    lcp: a['largest-contentful-paint']?.numericValue,
    tbt: a['total-blocking-time']?.numericValue,
    cls: a['cumulative-layout-shift']?.numericValue,
    fcp: a['first-contentful-paint']?.numericValue,
    si: a['speed-index']?.numericValue,
  };
}

function printReport(lhr, file) {
  const a = lhr.audits;
  const lines = [
    `Lighthouse ${lhr.lighthouseVersion} · ${lhr.finalDisplayedUrl} · ${lhr.configSettings.formFactor} preset (${lhr.configSettings.throttlingMethod} throttling)`,
    `  performance     ${score(lhr.categories.performance)}`,
    `  accessibility   ${score(lhr.categories.accessibility)}`,
    `  best-practices  ${score(lhr.categories['best-practices'])}`,
    `  LCP  ${ms(a['largest-contentful-paint']?.numericValue)}   TBT  ${ms(a['total-blocking-time']?.numericValue)}   CLS  ${(a['cumulative-layout-shift']?.numericValue ?? NaN).toFixed(3)}`,
    `  FCP  ${ms(a['first-contentful-paint']?.numericValue)}   Speed Index  ${ms(a['speed-index']?.numericValue)}`,
  ];
  const lcpElement = a['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node?.snippet;
  if (lcpElement) lines.push(`  LCP element: ${lcpElement.slice(0, 140)}`);
  for (const id of ['accessibility', 'best-practices']) {
    const failing = lhr.categories[id]?.auditRefs
      .filter((ref) => ref.weight > 0 && a[ref.id].score !== null && a[ref.id].score < 1)
      .map((ref) => `${ref.id} (${a[ref.id].title})`);
    if (failing?.length) lines.push(`  ${id} audits not passed: ${failing.join('; ')}`);
  }
  lines.push(`  report: ${path.relative(root, file)}`);
  console.log(lines.join('\n'));
}

let server;
let chrome;
try {
  log('starting the production server (building first if needed)…');
  server = await startServer();
  log(`server ready on ${server.url}; signing in as ${EMAIL}…`);
  const session = await signIn(server.url);
  const headers = { Cookie: `${SESSION_COOKIE}=${session}` };
  const url = new URL(args.path, server.url).toString();
  // One request first, so the measurement sees a warm server (database pages cached, code loaded) as a
  // publisher would, not the first request after a cold start.
  const warm = await fetch(url, { headers, redirect: 'manual' });
  await warm.arrayBuffer();
  if (warm.status !== 200) throw new Error(`GET ${url} with the session answered ${warm.status}`);

  chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS });
  const results = [];
  for (let i = 0; i < runs; i++) {
    log(`running Lighthouse on ${url}${runs > 1 ? ` (${i + 1}/${runs})` : ''}…`);
    const result = await lighthouse(
      url,
      {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices'],
        extraHeaders: headers,
      },
      // Lighthouse's default configuration: the mobile preset.
    );
    if (!result?.lhr) throw new Error('Lighthouse returned no result');
    if (result.lhr.runtimeError)
      throw new Error(`Lighthouse: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`);
    if (result.lhr.finalDisplayedUrl.includes('/login'))
      throw new Error('Lighthouse was sent to the sign-in page: the session header did not reach the server');
    results.push(result.lhr);
  }
  // The median run by performance score.
  const sorted = [...results].sort(
    (x, y) => (x.categories.performance.score ?? 0) - (y.categories.performance.score ?? 0),
  );
  const lhr = sorted[Math.floor(sorted.length / 2)];
  const outDir = path.join(root, '.data', 'lighthouse');
  fs.mkdirSync(outDir, { recursive: true });
  // Named after the page: overview, sites, countries…
  const name =
    args.path
      .replace(/[?#].*$/, '')
      .replace(/^\/+|\/+$/g, '')
      .replaceAll('/', '-') || 'overview';
  const file = path.join(outDir, `${name}.report.html`);
  fs.writeFileSync(file, generateReport(lhr, 'html'));
  fs.writeFileSync(path.join(outDir, `${name}.report.json`), JSON.stringify(lhr));
  if (runs > 1) {
    console.log('runs:');
    for (const r of results.map(summarize)) {
      console.log(
        `  perf ${r.performance?.toFixed(2)} a11y ${r.accessibility?.toFixed(2)} bp ${r.bestPractices?.toFixed(2)} LCP ${ms(r.lcp)} TBT ${ms(r.tbt)} CLS ${r.cls?.toFixed(3)}`,
      );
    }
  }
  printReport(lhr, file);
} catch (err) {
  console.error(`[lighthouse] failed: ${err?.stack ?? err}`);
  process.exitCode = 1;
} finally {
  if (chrome) await chrome.kill();
  if (server) await server.stop();
}
