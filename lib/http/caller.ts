import { authenticateApiKey, touchApiKey } from '@/lib/keys';
import type { DataVersion, Principal } from '@/lib/access';
import { ValidationError } from '@/lib/shared/errors';
import { runAfterResponse } from './background';
import { exactClientAddress } from './client-address';
import { ProblemError, WWW_AUTHENTICATE } from './problem';
import { addressPolicy, applyRateLimit, keyPolicy } from './rate-limit';

/**
 * Who is calling the API, and what that costs: the one place that reads an API key from a request, looks it
 * up and spends a request of the key's or the client address's budget.
 */

const UNAUTHORIZED = () =>
  new ProblemError({
    status: 401,
    title: 'Unauthorized',
    detail: 'A valid API key is required: send it in the X-Api-Key header or as "Authorization: Bearer <key>".',
    headers: WWW_AUTHENTICATE,
  });

/**
 * The key presented in a request, or null. Two different ones are a client error, not a guess at which to
 * use. Read before anything else of the request is validated, so that a caller without a valid key learns
 * nothing but 401, and straight from the URL so that no error message can ever quote an `apiKey` value.
 */
function presentedKey(request: Request, searchParams: URLSearchParams, keyInQuery: boolean): string | null {
  const found = new Map<string, string>();
  // A header sent twice arrives joined with ", " (keys never contain a comma).
  for (const part of request.headers.get('x-api-key')?.split(',') ?? []) {
    const header = part.trim();
    if (header && !found.has(header)) found.set(header, 'X-Api-Key');
  }
  const authorization = request.headers.get('authorization')?.trim();
  if (authorization) {
    const bearer = /^Bearer\s+(\S+)$/i.exec(authorization);
    if (!bearer) throw UNAUTHORIZED();
    if (!found.has(bearer[1])) found.set(bearer[1], 'Authorization');
  }
  if (keyInQuery) {
    for (const [name, value] of searchParams) {
      const fromQuery = name.toLowerCase() === 'apikey' ? value.trim() : '';
      if (fromQuery && !found.has(fromQuery)) found.set(fromQuery, 'apiKey');
    }
  }
  if (found.size > 1) {
    const detail = 'one of two different API keys sent in this request; send exactly one';
    throw new ValidationError([...new Set(found.values())].map((parameter) => ({ parameter, detail })));
  }
  return found.keys().next().value ?? null;
}

type Caller =
  { principal: Principal; lastUsedAt: Date | null; data: DataVersion } | { principal: null; rejection: ProblemError };

/** Who is calling: a valid key's principal, or the answer to give a caller without one (401, or 400 for two keys). */
async function identify(request: Request, searchParams: URLSearchParams, keyInQuery: boolean): Promise<Caller> {
  try {
    const raw = presentedKey(request, searchParams, keyInQuery);
    const found = raw ? await authenticateApiKey(raw) : null;
    if (!found) return { principal: null, rejection: UNAUTHORIZED() };
    // Where the call came from, for the activity log of what the key does.
    return { ...found, principal: { ...found.principal, clientAddress: exactClientAddress(request) } };
  } catch (err) {
    if (err instanceof ProblemError) return { principal: null, rejection: err };
    throw err;
  }
}

/**
 * Identifies the caller and spends one request: from the key's bucket, or, without a valid key, from the
 * client address's smaller bucket, so guessing is bounded and never costs a real key its quota.
 */
export async function admit(request: Request, searchParams: URLSearchParams, keyInQuery: boolean, headers: Headers) {
  let caller: Caller;
  try {
    caller = await identify(request, searchParams, keyInQuery);
  } catch (err) {
    // The key could not be checked (database down): still spend and report the address's budget, but answer
    // with the outage itself: a spent budget is not what the caller needs to hear, and nothing was checked.
    await applyRateLimit(addressPolicy(request), headers).catch((limited) => {
      if (!(limited instanceof ProblemError)) throw limited;
    });
    throw err;
  }
  if (!caller.principal) {
    await applyRateLimit(addressPolicy(request), headers);
    return caller;
  }
  const { principal, lastUsedAt } = caller;
  await applyRateLimit(keyPolicy(principal.keyId!), headers);
  runAfterResponse(() => touchApiKey(principal.keyId!, lastUsedAt));
  return caller;
}
