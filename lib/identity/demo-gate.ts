import ipaddr from 'ipaddr.js';
import { env, ownServer } from '@/lib/platform/env';
import { accountsWithDemoPassword } from './passwords';

/**
 * No open door by default: a server that others can reach refuses to start while demo accounts still have the
 * password the README publishes, unless ALLOW_DEMO=1 says the demo is meant to be public. Run at start-up by
 * instrumentation.ts, so it holds for `npm start`, `next start` and Vercel alike.
 */

export interface GateOptions {
  /** The host our server listens on (scripts/serve.mjs says); absent under any other server. */
  listenHost?: string;
  /** A Vercel deployment: on the internet, whatever it listens on. */
  vercel: boolean;
  /** ALLOW_DEMO: the demo is meant to be public. */
  allowDemo: boolean;
  /** The accounts to check; the demo seeds' by default. */
  demoEmails?: readonly string[];
}

export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (bare.toLowerCase() === 'localhost') return true;
  return ipaddr.isValid(bare) && ipaddr.process(bare).range() === 'loopback';
}

/** How others could reach this server, as a clause of the refusal; null when only this machine can. */
export function reachableBeyondLoopback({
  listenHost,
  vercel,
}: Pick<GateOptions, 'listenHost' | 'vercel'>): string | null {
  if (vercel) return 'this Vercel deployment is on the internet';
  // `next start` and other servers do not say where they listen; `next start` listens on every interface.
  if (!listenHost) return 'this server was not started by npm start, so it may listen on every interface';
  return isLoopbackHost(listenHost) ? null : `the server is set to listen on ${listenHost} (HOST), beyond this machine`;
}

/** The one line that says why this server will not start and what to do, or null when it may start. */
export async function demoRefusal(
  options: GateOptions = {
    listenHost: ownServer.listenHost(),
    vercel: env().VERCEL,
    allowDemo: env().ALLOW_DEMO,
  },
): Promise<string | null> {
  if (options.allowDemo) return null;
  const reachable = reachableBeyondLoopback(options);
  if (!reachable) return null;
  const accounts = await accountsWithDemoPassword(options.demoEmails);
  if (accounts.length === 0) return null;
  const [them, have] = accounts.length === 1 ? ['it', 'has'] : ['them', 'have'];
  const change = `npm run password -- --email ${accounts[0]}`;
  const remedy = options.vercel
    ? `(DATABASE_URL=<this deployment's database> ${change}), or set ALLOW_DEMO=1 for a preview with demo data.`
    : options.listenHost
      ? `(${change}), listen on 127.0.0.1 only (unset HOST), or set ALLOW_DEMO=1 to serve the demo on purpose.`
      : `(${change}), start it with npm start (127.0.0.1 unless HOST says otherwise), or set ALLOW_DEMO=1 to serve the demo on purpose.`;
  return `Refusing to start: ${reachable}, and ${accounts.join(', ')} still ${have} the published demo password. Change ${them} ${remedy}`;
}
