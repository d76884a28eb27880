import { randomUUID } from 'node:crypto';
import { readDataVersion, type Principal } from '@/lib/access';
import { ProblemError } from '@/lib/http/problem';
import { problemResponse } from '@/lib/http/problem-response';
import { StreamedBody, streamResponse, withoutBody } from '@/lib/http/render';
import { claimExportSlot } from '@/lib/http/report-slots';
import { accountValidators, clientCopyIsCurrent, notModified, setValidators } from '@/lib/http/validators';
import { downloaderOf, type DownloadRules } from './download-access';
import { currentPerson } from './session';

/**
 * The one wrapper of the dashboard's route handlers, the downloads that the session cookie opens (the API's is
 * lib/http/api-route.ts): session → two-factor requirement → account (`?as=`) → the member's grant and site
 * scope (lib/dashboard/download-access.ts) → validators and export slot → the file. Anything thrown becomes
 * problem+json with its status (lib/http/problem-response.ts); no route writes its own try/catch or status.
 * Without a session cookie proxy.ts sends the browser to sign in; with one that opens nothing, it is a 401.
 */

/** What a download's handler is given: the principal it reads with, already checked. */
interface DownloadContext<P> {
  request: Request;
  params: P;
  searchParams: URLSearchParams;
  principal: Principal;
}

/** A file to download: its name, its media type and its content; text (whole or streamed) is sent as UTF-8. */
interface DownloadFile {
  fileName: string;
  type: string;
  body: string | Uint8Array | AsyncIterable<string>;
}

export interface DownloadRoute<P> extends DownloadRules {
  /**
   * Made from the account's report data alone, in this media type: it carries validators made from the
   * account's data version (lib/http/validators.ts), and a copy the browser already has is answered 304 before
   * anything is computed. Other downloads are `Cache-Control: no-store`.
   */
  accountData?: { type: string };
  /**
   * Made whole from many reads (a year of the activity log): it holds one of the account's export slots while it
   * is made, as a streamed download does while it is sent (lib/http/report-slots.ts).
   */
  heavy?: boolean;
  handle(context: DownloadContext<P>): Promise<DownloadFile>;
}

type RouteContext<P> = { params: Promise<P> };

/** A route file's GET and HEAD (the GET's status and headers; a streamed body is never opened). */
export function downloadRoute<P>(route: DownloadRoute<P>) {
  const GET = (request: Request, context: RouteContext<P>) => answer(route, request, context);
  const HEAD = async (request: Request, context: RouteContext<P>) => withoutBody(await GET(request, context));
  return { GET, HEAD };
}

const signedOut = (what: string) =>
  // Not the API's WWW-Authenticate: a person signs in on the sign-in page, not with a key.
  new ProblemError({ status: 401, title: 'Unauthorized', detail: `Sign in to download ${what}.` });

async function answer<P>(route: DownloadRoute<P>, request: Request, context: RouteContext<P>): Promise<Response> {
  // The export slot, when one is held: given back on the way out, unless a streamed body takes it along.
  let release = () => {};
  try {
    const user = await currentPerson();
    if (!user) throw signedOut(route.what);
    const { searchParams } = new URL(request.url);
    const principal = await downloaderOf(user, searchParams, route);
    const headers = new Headers();
    const validators = route.accountData
      ? accountValidators(principal, await readDataVersion(principal.userId), request, route.accountData.type)
      : null;
    if (validators && clientCopyIsCurrent(request, validators)) return notModified(headers, validators);
    if (route.heavy) release = await claimExportSlot(principal.userId);
    const file = await route.handle({ request, params: await context.params, searchParams, principal });
    if (validators) setValidators(headers, validators);
    else headers.set('Cache-Control', 'no-store');
    if (typeof file.body === 'string' || file.body instanceof Uint8Array) return whole(file, headers);
    // Counted with the account's API exports: each holds a database connection while it downloads.
    const releaseStream = route.heavy ? release : await claimExportSlot(principal.userId);
    release = () => {};
    const body = new StreamedBody(file.body, file.fileName, principal.userId);
    return streamResponse(body, file.type, headers, { release: releaseStream });
  } catch (err) {
    return problemResponse(err, request, new Headers(), randomUUID());
  } finally {
    release();
  }
}

function whole(file: DownloadFile, headers: Headers): Response {
  const text = typeof file.body === 'string';
  headers.set('Content-Type', text ? `${file.type}; charset=utf-8` : file.type);
  headers.set('Content-Disposition', `attachment; filename="${file.fileName}"`);
  return new Response(file.body as BodyInit, { headers });
}
