/**
 * Prism (@stoplight/prism-cli) as a validating proxy in front of the server: it forwards every request and
 * checks the request and the answer against the OpenAPI document. What it found comes back in the
 * `sl-violations` header (request and response, every severity); with `--errors` a response that breaks the
 * document is replaced by a Prism problem (type …#VIOLATIONS, status 500) listing the violations, and a
 * request that breaks it is answered by Prism (422, or 401 for no key) without reaching the server.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export interface Violation {
  /** `request` or `response`, then where: e.g. `response.body.data.0.revenue`. */
  location: string;
  severity: string;
  message: string;
}

export interface PrismProxy {
  origin: string;
  output(): string;
  stop(): Promise<void>;
}

/** The CLI of the pinned @stoplight/prism-cli (its `prism` bin). */
const PRISM = path.join(
  path.dirname(fileURLToPath(import.meta.resolve('@stoplight/prism-cli/package.json'))),
  'dist',
  'index.js',
);

/**
 * With `errors`, Prism also answers a request that breaks the document itself (422, or 401 for no key)
 * instead of forwarding it. Without, it forwards everything and only reports, in the header: how the session
 * gets the server's own answer to a request that is wrong on purpose.
 */
export async function startPrism(
  document: string,
  upstream: string,
  options: { port: number; errors: boolean },
): Promise<PrismProxy> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      PRISM,
      'proxy',
      `--errors=${options.errors}`,
      '--port',
      String(options.port),
      '--host',
      '127.0.0.1',
      '--verboseLevel',
      'warn',
      document,
      upstream,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const origin = `http://127.0.0.1:${options.port}`;
  const proxy: PrismProxy = {
    origin,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`prism exited (${child.exitCode}):\n${output}`);
    try {
      await (await fetch(`${origin}/api/v1/health`, { signal: AbortSignal.timeout(2000) })).arrayBuffer();
      return proxy;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250)); // not listening yet
    }
  }
  await proxy.stop();
  throw new Error(`prism did not answer on ${origin} within 60 s:\n${output}`);
}

interface PrismProblem {
  type?: string;
  title?: string;
  detail?: string;
  validation?: { location?: string[]; severity?: string; message?: string }[];
}

const PRISM_PROBLEM = 'https://stoplight.io/prism/errors#';

/**
 * What Prism says about one exchange: the violations of its header and, when Prism answered in the server's
 * place (a #VIOLATIONS problem under --errors, or a route the document lacks), those too.
 */
export function violationsOf(headers: Headers, body: string): Violation[] {
  const found: Violation[] = [];
  const header = headers.get('sl-violations');
  if (header) {
    const list = header.startsWith('Too many')
      ? [{ location: [], severity: 'Error', message: header }]
      : JSON.parse(header);
    for (const v of list as NonNullable<PrismProblem['validation']>) found.push(violation(v));
  }
  if (headers.get('content-type')?.includes('problem+json') && body.includes(PRISM_PROBLEM)) {
    const problem = JSON.parse(body) as PrismProblem;
    if (problem.type?.startsWith(PRISM_PROBLEM)) {
      if (problem.validation?.length) {
        // Its locations start with request or response, except a request's (422, Prism answered it itself).
        const side = problem.type.endsWith('UNPROCESSABLE_ENTITY') ? ['request'] : [];
        for (const v of problem.validation) found.push(violation({ ...v, location: [...side, ...(v.location ?? [])] }));
      } else {
        found.push({ location: 'prism', severity: 'Error', message: `${problem.title}: ${problem.detail ?? ''}` });
      }
    }
  }
  // The header and the problem list the same response violations: each once.
  return [...new Map(found.map((v) => [`${v.location} ${v.message}`, v])).values()];
}

const violation = (v: NonNullable<PrismProblem['validation']>[number]): Violation => ({
  location: (v.location ?? []).join('.'),
  severity: v.severity ?? 'Error',
  message: v.message ?? '',
});
