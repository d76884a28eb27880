import fc from 'fast-check';
import { ENDPOINTS } from '../../lib/api/endpoints';

/**
 * Hostile requests for every endpoint and method, and the rules every answer must keep (issue 9, point 7):
 * 2xx or a status the OpenAPI document lists for that operation (405 for a method the path does not have),
 * every error a problem+json with the rate-limit headers, and every returned row in the caller's scope. A HEAD
 * is answered as its GET would be (the same status and headers) without a body (issue 18, point 5).
 * Shared by the in-process property test (tests/integration/api-fuzz.test.ts) and `npm run fuzz`
 * (scripts/fuzz.ts), which sends them to a production server.
 */

export interface FuzzCaller {
  name: string;
  /** What it sends as its key (null: nothing). */
  key: string | null;
  /** The sites its answers may show; rows of any other site are a leak. */
  sites: readonly string[];
}

export interface FuzzRequest {
  /** The endpoint table's operation whose path this is. */
  operationId: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  caller: FuzzCaller;
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

const HOSTILE_WORDS = [
  ...['', ' ', '0', '-1', '1e309', 'NaN', 'null', 'true', '[]', '{}', ',', ',,', ';', '==', '=in=()', '*'],
  ...['%', '%ZZ', '%00', '\u0000', '\uFFFF', '\uD800', '😀', 'Ω', '\r\n', '\t=1+1'],
  ...["' or 1=1 --", '"; drop table sites; --', '../../etc/passwd', '<script>alert(1)</script>', '=cmd|"/c calc"!A1'],
  ...['revenue', '-revenue', 'cpm', 'country', 'date', 'siteId', 'gameId', 'DE', 'de', 'ZZ', 'all'],
  ...['2026-02-30', '9999-12-31', '0000-01-01', '2024-02-29', '1970-01-01T00:00:00Z', '2025-13-01', 'today'],
  ...['cpm>=0;'.repeat(40), 'country==DE;cpm>1', 'revenueAmount>=0', 'gameId==x', 'a'.repeat(5000)],
  '00000000-0000-0000-0000-000000000000',
];

/** A value a client could send: hostile words, random text of any alphabet, numbers, dates, ids. */
const hostileValue = (ids: readonly string[]) =>
  fc.oneof(
    fc.constantFrom(...HOSTILE_WORDS),
    fc.constantFrom(...ids),
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 20 }),
    fc.integer().map(String),
    fc.double().map(String),
    fc.uuid(),
    fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
    fc.array(fc.constantFrom(...ids), { maxLength: 4 }).map((list) => list.join(',')),
  );

/** Parameter names: each documented one in any letter case, the legacy apiKey, and anything else. */
const parameterName = (known: readonly string[]) =>
  fc.oneof(
    { weight: 3, arbitrary: known.length > 0 ? fc.constantFrom(...known) : fc.constant('x') },
    known.length > 0
      ? fc.tuple(fc.constantFrom(...known), fc.boolean()).map(([n, upper]) => (upper ? n.toUpperCase() : n))
      : fc.constant('x'),
    fc.constantFrom('apiKey', 'APIKEY', 'page', 'pageSize', 'Filter', 'FilterList', 'Search', 'sortBy'),
    fc.string({ minLength: 1, maxLength: 12 }),
  );

const ACCEPT = ['*/*', 'application/json', 'text/csv', 'application/x-ndjson', 'application/problem+json'];
const CONTENT_TYPES = ['application/json', 'text/csv', 'application/x-ndjson', 'text/plain', 'multipart/form-data'];

/** A request body: JSON of any shape, a valid-looking one, CSV or NDJSON rows with hostile cells, or junk. */
const body = (ids: readonly string[]) =>
  fc.oneof(
    fc.json({ maxDepth: 3 }),
    fc.string({ maxLength: 200 }),
    fc
      .record({ email: fc.oneof(fc.emailAddress(), hostileValue(ids)), name: hostileValue(ids) })
      .map((value) => JSON.stringify(value)),
    fc
      .record({ label: hostileValue(ids), siteIds: fc.option(fc.array(hostileValue(ids), { maxLength: 3 })) })
      .map((value) => JSON.stringify(value)),
    // A site's fields and review (the admin's site operations): mostly valid-looking, with hostile values.
    fc
      .record(
        {
          publisherId: hostileValue(ids),
          name: fc.oneof(hostileValue(ids), fc.constant('A game')),
          url: fc.oneof(hostileValue(ids), fc.webUrl(), fc.constant('https://game.test.example')),
          framework: fc.oneof(hostileValue(ids), fc.constant('phaser')),
          status: fc.oneof(fc.constantFrom('pending', 'approved', 'live'), hostileValue(ids)),
          statusReason: hostileValue(ids),
        },
        { requiredKeys: [] },
      )
      .map((value) => JSON.stringify(value)),
    fc
      .array(fc.array(hostileValue(ids), { minLength: 7, maxLength: 7 }), { maxLength: 4 })
      .map(
        (rows) =>
          `day,siteId,country,impressions,clicks,adRequests,revenue\n${rows.map((r) => r.join(',')).join('\n')}\n`,
      ),
    fc.array(fc.json({ maxDepth: 2 }), { maxLength: 3 }).map((lines) => lines.join('\n')),
  );

function encodes(text: string): boolean {
  try {
    encodeURIComponent(text);
    return true;
  } catch {
    return false; // a lone surrogate
  }
}

/**
 * Requests to one operation's path: mostly its own method (sometimes HEAD or another), its path parameters from
 * known and hostile ids, documented and unknown query parameters with hostile values (repeated sometimes),
 * any Accept, a key in the header, as a Bearer token, or both.
 */
function fuzzRequests(
  operationId: string,
  options: FuzzOptions & { parameters: readonly string[] },
): fc.Arbitrary<FuzzRequest> {
  const endpoint = ENDPOINTS.find((e) => e.operationId === operationId);
  if (!endpoint) throw new Error(`no operation ${operationId}`);
  const { callers, parameters } = options;
  // An operation on one account (deactivate…) takes its known ids from throwaway accounts: deactivating a
  // caller's own account would revoke its keys and turn every later case into a 401.
  const ids = endpoint.path.startsWith('/api/v1/admin/publishers/{') ? options.accountIds : options.ids;
  // Not empty, "." or "..": those make another path (the catch-all's 404), not a value of this one; and
  // text that percent-encodes (a lone surrogate cannot: the malformed-path tests send those bytes raw).
  const pathValue = fc
    .oneof(fc.constantFrom(...ids), hostileValue(ids))
    .filter((v) => !['', '.', '..'].includes(v) && encodes(v));
  return fc
    .record({
      // HEAD on its own too: on a GET path it runs the whole GET (an export's included) up to its body.
      method: fc.oneof(
        { weight: 4, arbitrary: fc.constant(endpoint.method) },
        fc.constant('HEAD'),
        fc.constantFrom(...METHODS),
      ),
      pathValues: fc.array(pathValue, { minLength: 2, maxLength: 2 }),
      query: fc.array(fc.tuple(parameterName(parameters), hostileValue(ids)), { maxLength: 4 }),
      // Mostly what real clients send, so that most cases get past negotiation and authentication.
      accept: fc.oneof(
        { weight: 3, arbitrary: fc.constant(null) },
        { weight: 2, arbitrary: fc.constantFrom(...ACCEPT) },
        fc.string({ maxLength: 30 }),
      ),
      contentType: fc.option(fc.constantFrom(...CONTENT_TYPES)),
      keyAs: fc.constantFrom('header', 'bearer', 'both'),
      body: fc.option(body(ids)),
      caller: fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...callers.filter((c) => c.sites.length > 0)) },
        fc.constantFrom(...callers),
      ),
    })
    .map(({ method, pathValues, query, accept, contentType, keyAs, body: sent, caller }) => {
      let n = 0;
      const path = endpoint.path.replace(/\{\w+\}/g, () => encodeURIComponent(pathValues[n++]));
      const search = new URLSearchParams(query).toString();
      const headers: Record<string, string> = {};
      if (accept !== null) headers.Accept = accept.replace(/[^\x20-\x7e]/g, '');
      if (contentType !== null) headers['Content-Type'] = contentType;
      if (caller.key !== null && keyAs !== 'bearer') headers['X-Api-Key'] = caller.key;
      if (caller.key !== null && keyAs !== 'header') headers.Authorization = `Bearer ${caller.key}`;
      const withBody = sent !== null && !['GET', 'HEAD', 'OPTIONS'].includes(method);
      return {
        operationId,
        method,
        path: search ? `${path}?${search}` : path,
        headers,
        caller,
        ...(withBody ? { body: sent } : {}),
      };
    });
}

export interface FuzzAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/** The statuses the OpenAPI document lists for an operation, by its method and templated path. */
export type DocumentedStatuses = (method: string, templatedPath: string) => Set<number> | null;

export function documentedStatuses(document: {
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
}): DocumentedStatuses {
  return (method, templatedPath) => {
    const operation = document.paths[templatedPath]?.[method.toLowerCase()];
    return operation ? new Set(Object.keys(operation.responses).map(Number)) : null;
  };
}

/** The documented query parameters of an operation. */
export function documentedParameters(
  document: { paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>> },
  operationId: string,
): string[] {
  const endpoint = ENDPOINTS.find((e) => e.operationId === operationId)!;
  const operation = document.paths[endpoint.path]?.[endpoint.method.toLowerCase()];
  return (operation?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
}

interface FuzzOptions {
  callers: readonly FuzzCaller[];
  /** Known ids for path parameters and values: sites, accounts, keys. */
  ids: readonly string[];
  /** Accounts the cases may deactivate, reactivate and invite again: none of the callers'. */
  accountIds: readonly string[];
}

/** One operation's hostile requests, with the query parameters the OpenAPI document lists for it. */
export const operationRequests = (
  document: Parameters<typeof documentedParameters>[0],
  operationId: string,
  options: FuzzOptions,
) => fuzzRequests(operationId, { ...options, parameters: documentedParameters(document, operationId) });

/** What is wrong with an answer to `request`, if anything. */
function violations(request: FuzzRequest, answer: FuzzAnswer, documented: DocumentedStatuses): string[] {
  const problems: string[] = [];
  const endpoint = ENDPOINTS.find((e) => e.operationId === request.operationId)!;
  // A HEAD is its path's GET without the body: GET's statuses (405 where the path has no GET), no body.
  const head = request.method === 'HEAD';
  const hasGet = documented('GET', endpoint.path) !== null;
  const allowed =
    request.method === 'OPTIONS'
      ? new Set([204, 429, 503])
      : (documented(head ? 'GET' : request.method, endpoint.path) ?? new Set([405, 429, 503]));
  const { status } = answer;
  // Any 2xx is the operation's to choose, but a HEAD where the path has no GET has nothing to succeed at.
  const maySucceed = !head || hasGet;
  if ((status >= 300 || !maySucceed) && !allowed.has(status)) problems.push(`status ${status} is not documented`);
  // The document lists 500 for a server's failure; no request, however hostile, may cause one.
  if (status === 500) problems.push(`answered 500: ${answer.text.slice(0, 120)}`);
  const type = answer.headers.get('content-type') ?? '';
  // Where the path has no GET the 405 is the wrapper's, whose body only a server drops (an in-process call keeps it).
  if (head && hasGet && answer.text !== '') problems.push(`HEAD answered with a body: ${answer.text.slice(0, 80)}`);
  if (status >= 400) {
    if (!type.startsWith('application/problem+json')) problems.push(`error with Content-Type ${type}`);
    else if (!head) {
      const problem = JSON.parse(answer.text) as { status?: unknown; title?: unknown; detail?: unknown };
      if (problem.status !== status || typeof problem.title !== 'string' || typeof problem.detail !== 'string') {
        problems.push('error body is not a problem with status, title and detail');
      }
    }
    if (!answer.headers.get('x-ratelimit-limit')) problems.push('error without X-RateLimit-Limit');
  }
  // An admin's operations answer for every account (only an admin's key gets a 2xx there): no scope to keep.
  if (status < 300 && !head && endpoint.access !== 'operator')
    problems.push(...outOfScope(request.caller, type, answer.text));
  return problems;
}

/** The GET a HEAD stands for: the same request with the other method. */
const getTwinOf = (head: FuzzRequest): FuzzRequest => ({ ...head, method: 'GET' });

/**
 * Everything wrong with the answer to `request`: its violations and, for a HEAD, how it differs from the answer
 * to its GET, which `send` sends after it.
 */
export async function answerProblems(
  request: FuzzRequest,
  answer: FuzzAnswer,
  documented: DocumentedStatuses,
  send: (request: FuzzRequest) => Promise<FuzzAnswer>,
): Promise<string[]> {
  const problems = violations(request, answer, documented);
  if (request.method === 'HEAD') problems.push(...headMismatches(answer, await send(getTwinOf(request))));
  return problems;
}

/**
 * What differs between the answers to a HEAD and to its GET (getTwinOf), sent one after the other: the same
 * status, Content-Type and Allow. Not comparable when either was turned away for load (429, 503): a slot
 * the other held, say.
 */
function headMismatches(head: FuzzAnswer, get: FuzzAnswer): string[] {
  if ([head.status, get.status].some((s) => s === 429 || s === 503)) return [];
  const problems: string[] = [];
  if (head.status !== get.status) problems.push(`HEAD answered ${head.status} where GET answered ${get.status}`);
  for (const name of ['content-type', 'allow']) {
    const [h, g] = [head.headers.get(name), get.headers.get(name)];
    if (h !== g) problems.push(`HEAD's ${name} ${JSON.stringify(h)} differs from GET's ${JSON.stringify(g)}`);
  }
  return problems;
}

/** Rows naming a site the caller may not read, in a JSON or CSV answer. */
function outOfScope(caller: FuzzCaller, type: string, text: string): string[] {
  const allowed = new Set(caller.sites);
  const seen: string[] = [];
  if (type.startsWith('text/csv')) {
    const [header, ...rows] = text.trimEnd().split('\n');
    const column = header?.split(',').findIndex((name) => name === 'siteId' || name === 'gameId') ?? -1;
    if (column >= 0) for (const row of rows) seen.push(row.split(',')[column]);
  } else if (/json/.test(type) && text) {
    const values = type.includes('ndjson') ? text.split('\n').filter(Boolean) : [text];
    const visit = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(visit);
      else if (value && typeof value === 'object') {
        for (const [name, inner] of Object.entries(value)) {
          if ((name === 'siteId' || name === 'gameId') && typeof inner === 'string') seen.push(inner);
          else visit(inner);
        }
      }
    };
    values.forEach((line) => visit(JSON.parse(line)));
  }
  return [...new Set(seen.filter((site) => !allowed.has(site)))].map(
    (site) => `row of site ${site} for ${caller.name}`,
  );
}
