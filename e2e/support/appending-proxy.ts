import http from 'node:http';

/**
 * A load balancer in front of a server, as far as addresses go: it forwards every request and appends the
 * address it got the request from to X-Forwarded-For, keeping whatever the client wrote there on the left.
 */
export interface AppendingProxy {
  url: string;
  close(): Promise<void>;
}

export async function startAppendingProxy(target: string, port: number): Promise<AppendingProxy> {
  const server = http.createServer((req, res) => {
    const written = req.headers['x-forwarded-for'];
    const forwardedFor = [written, req.socket.remoteAddress].filter(Boolean).join(', ');
    const upstream = http.request(
      new URL(req.url ?? '/', target),
      { method: req.method, headers: { ...req.headers, 'x-forwarded-for': forwardedFor } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
