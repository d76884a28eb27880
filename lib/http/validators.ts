import { createHash } from 'node:crypto';
import type { DataVersion, Principal } from '@/lib/access';
import { todayUtc } from '@/lib/query';
import { noneMatchHits } from './etag';

/** Answers made from an account's data may be kept by the caller's own client only, and checked every time. */
const ACCOUNT_DATA_CACHE_CONTROL = 'private, no-cache';

export interface Validators {
  etag: string;
  lastModified: Date;
}

/**
 * The validators of an answer made from an account's data, known before the answer is computed: the data's
 * version, and everything else the answer depends on (whose data, the caller's site scope, the URL, the media
 * type, and today, which a request without dates resolves its range from). Weak, as they name the data and not
 * the bytes: the same answer compressed or not has the same tag.
 */
export function accountValidators(
  principal: Principal,
  data: DataVersion,
  request: Request,
  type: string,
  now = new Date(),
): Validators {
  const today = todayUtc(now);
  const { pathname, search } = new URL(request.url);
  const digest = createHash('sha256')
    .update(JSON.stringify([principal.userId, principal.siteScope, data.version, pathname, search, type, today]))
    .digest('base64url');
  // A new day changes what a default range covers, so Last-Modified is never before today's start.
  const startOfToday = new Date(`${today}T00:00:00Z`);
  const changed = new Date(Math.floor(data.changedAt.getTime() / 1000) * 1000);
  return { etag: `W/"${digest.slice(0, 27)}"`, lastModified: changed > startOfToday ? changed : startOfToday };
}

/**
 * Whether the client's copy is current (RFC 9110 §13.2.2): If-None-Match decides when it is sent; otherwise
 * If-Modified-Since, to the second.
 */
export function clientCopyIsCurrent(request: Request, validators: Validators): boolean {
  const ifNoneMatch = request.headers.get('if-none-match');
  if (ifNoneMatch !== null) return noneMatchHits(ifNoneMatch, validators.etag);
  const since = Date.parse(request.headers.get('if-modified-since') ?? '');
  return Number.isFinite(since) && validators.lastModified.getTime() <= since;
}

/** ETag, Last-Modified and Cache-Control on a successful answer made from the account's data. */
export function setValidators(headers: Headers, validators: Validators): void {
  headers.set('ETag', validators.etag);
  headers.set('Last-Modified', validators.lastModified.toUTCString());
  headers.set('Cache-Control', ACCOUNT_DATA_CACHE_CONTROL);
}

/** 304: the validators and the headers already set (rate limits, Vary), without a body or a Content-Type. */
export function notModified(headers: Headers, validators: Validators): Response {
  setValidators(headers, validators);
  headers.delete('Content-Type');
  return new Response(null, { status: 304, headers });
}
