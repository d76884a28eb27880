import net from 'node:net';

/**
 * A TCP proxy in front of a real server (PostgreSQL) that can play the ways a database goes away:
 * - `refuse`: nothing listens any more (ECONNREFUSED), and open connections are closed;
 * - `hang`: connections are accepted and kept, but no byte passes either way (a partition, a frozen host);
 * - `reset`: every connection, open or new, is reset (RST);
 * - `pass`: forwarding again; bytes held during a hang flow on.
 * Used by the outage tests (vitest and Playwright) so that the app sees the same sockets it would in production.
 */
export type FaultMode = 'pass' | 'refuse' | 'hang' | 'reset';

interface Pair {
  client: net.Socket;
  upstream: net.Socket;
  frozen: boolean;
}

export interface FaultProxy {
  port: number;
  /** postgres://… through the proxy, from a URL of the real server. */
  urlFor(target: string): string;
  set(mode: FaultMode): Promise<void>;
  close(): Promise<void>;
}

export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  let mode: FaultMode = 'pass';
  const pairs = new Set<Pair>();
  const server = net.createServer((client) => {
    if (mode === 'reset') return client.resetAndDestroy();
    const upstream = net.connect(target.port, target.host);
    const pair: Pair = { client, upstream, frozen: false };
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
    if (mode === 'hang') freeze(pair);
  });
  const port = await listen(server, 0);

  return {
    port,
    urlFor(targetUrl) {
      const url = new URL(targetUrl);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    async set(next) {
      mode = next;
      if (next === 'hang') for (const pair of pairs) freeze(pair);
      if (next === 'reset') for (const pair of pairs) reset(pair);
      if (next === 'refuse') {
        for (const pair of pairs) reset(pair);
        if (server.listening) await new Promise((resolve) => server.close(resolve));
      }
      if (next === 'pass') for (const pair of pairs) thaw(pair);
      if (next !== 'refuse' && !server.listening) await listen(server, port);
    },
    async close() {
      for (const pair of pairs) reset(pair);
      if (server.listening) await new Promise((resolve) => server.close(resolve));
    },
  };
}

function listen(server: net.Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as net.AddressInfo).port);
    });
  });
}

/** Holds every byte: unpiped sockets buffer what arrives, and TCP back-pressure does the rest. */
function freeze(pair: Pair) {
  if (pair.frozen) return;
  pair.frozen = true;
  const { client, upstream } = pair;
  client.unpipe(upstream);
  upstream.unpipe(client);
  client.pause();
  upstream.pause();
}

/** Forwards again, once: a second pipe would send every byte twice. */
function thaw(pair: Pair) {
  if (!pair.frozen) return;
  pair.frozen = false;
  const { client, upstream } = pair;
  client.pipe(upstream);
  upstream.pipe(client);
  client.resume();
  upstream.resume();
}

function reset({ client, upstream }: Pair) {
  client.resetAndDestroy();
  upstream.destroy();
}
