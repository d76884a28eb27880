/**
 * The fetch the orval client calls (its mutator, named in ../orval.config.ts): the API's origin in front of
 * the path, and the answer as orval's types describe it: `{ data, status, headers }` with JSON parsed and
 * anything else as text, or `{ stream, status, headers }` for NDJSON, left for the caller to read.
 */
let origin = 'http://localhost:3000';

export function setOrigin(value: string) {
  origin = value;
}

export async function orvalFetch<T>(path: string, init: RequestInit): Promise<T> {
  const response = await fetch(`${origin}${path}`, { ...init, body: rawBody(init) });
  const type = response.headers.get('content-type') ?? '';
  const { status, headers } = response;
  if (type.startsWith('application/x-ndjson')) return { stream: response, status, headers } as T;
  const text = await response.text();
  return { data: text && type.includes('json') ? JSON.parse(text) : text, status, headers } as T;
}

/**
 * orval sends a string body as is only for text/plain: any other type gets JSON.stringify (a CSV would
 * arrive as one quoted JSON string). The string it meant is sent instead.
 */
function rawBody(init: RequestInit): RequestInit['body'] {
  const type = new Headers(init.headers as HeadersInit).get('content-type') ?? '';
  if (typeof init.body !== 'string' || type.includes('json')) return init.body;
  return init.body.startsWith('"') ? (JSON.parse(init.body) as string) : init.body;
}
