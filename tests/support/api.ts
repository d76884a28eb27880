/**
 * Calls the API's route handlers in-process, exactly as Next.js would (a Request plus a params promise),
 * so integration tests exercise the wrapper, auth, grammar and services without a server.
 */
import * as catchAll from '@/app/api/[...path]/route';
import { settleBackgroundTasks } from '@/lib/http/background';
import { CLIENT_ADDRESS_HEADER } from '@/lib/http/client-address';
import { newClientAddress, stamped } from './client-address';
import { assertMatchesContract, ROUTES, type RouteModule } from './contract';

type Handler = RouteModule[string];

export interface CallOptions {
  /** Sent as X-Api-Key. */
  key?: string;
  headers?: Record<string, string>;
  /** An object is sent as JSON (Content-Type application/json unless given); a string is sent as is. */
  body?: unknown;
}

export interface ApiResult {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body, or undefined when the body is empty or not JSON. */
  json: any;
}

/**
 * A `fetch` that serves the request with the route handlers in-process, as Next.js would, and checks the
 * answer against the OpenAPI document. The body is read before after-response work runs, as a server sends
 * it first: a streamed body can hold the embedded database's one connection until it has been read.
 */
export async function fetchInProcess(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  const { method } = request;
  let handler: Handler | undefined;
  let params: Record<string, string | string[]> = {};
  for (const [pattern, module, names] of ROUTES) {
    const match = pattern.exec(pathname);
    if (match) {
      handler = module[method];
      params = Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(match[i + 1])]));
      break;
    }
  }
  if (!handler) {
    if (ROUTES.some(([pattern]) => pattern.test(pathname))) {
      throw new Error(`${method} is not exported by the route for ${pathname}; Next.js would answer it itself`);
    }
    handler = (catchAll as unknown as RouteModule)[method];
    params = { path: pathname.split('/').slice(2) };
  }
  const response = await handler(request, { params: Promise.resolve(params) });
  // Bytes, not text: a PDF must come back as it was sent.
  const bytes = new Uint8Array(await response.arrayBuffer());
  await settleBackgroundTasks();
  const text = new TextDecoder().decode(bytes);
  assertMatchesContract(method, pathname, response.status, response.headers.get('content-type'), text);
  return new Response(bytes.byteLength > 0 ? bytes : null, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/** `path` may carry a query string, e.g. `/api/v1/reports/by-country?pageSize=5`. */
export async function callApi(method: string, path: string, options: CallOptions = {}): Promise<ApiResult> {
  const url = new URL(path, 'http://localhost');
  const headers = new Headers(options.headers);
  if (options.key) headers.set('X-Api-Key', options.key);
  // Our server stamps every request with the caller's address; give each call its own unless a test picks
  // one (tests/support/client-address.ts), so unrelated 401s in a file never share the per-address budget.
  if (!headers.has(CLIENT_ADDRESS_HEADER)) {
    for (const [name, value] of Object.entries(stamped(newClientAddress()))) headers.set(name, value);
  }
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    if (!headers.has('content-type')) headers.set('Content-Type', 'application/json');
  }
  const response = await fetchInProcess(new Request(url, { method, headers, body }));
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

export const get = (path: string, options?: CallOptions) => callApi('GET', path, options);
