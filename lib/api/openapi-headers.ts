/**
 * The response headers of the OpenAPI document: which of the server's headers each response carries
 * (lib/http sends them; this only describes them), with the wording for keyed and keyless answers.
 */
import type { oas31 } from 'zod-openapi';
import { addressLimit, keyLimit } from '@/lib/ratelimit';

type Headers = Record<string, oas31.HeaderObject>;
const int = { type: 'integer', minimum: 0 } as const;
const text = { type: 'string' } as const;
const header = (description: string, schema: oas31.SchemaObject = text, required = false): oas31.HeaderObject => ({
  description,
  required,
  schema,
});

/** Whose budget an answer spent: the key's, or the client address's when the request had no valid key. */
export type Budget = 'key' | 'address' | 'either';

/**
 * On every answer. A request without a valid key (the health check, this document, a 401) spends its client
 * address's budget, not a key's, so those answers say so; some errors may come before the key is read.
 */
export function everyAnswer(budget: Budget): Headers {
  const key = `the API key's budget (${keyLimit()} per minute)`;
  const address = `the client address's budget for requests without a valid key (${addressLimit()} per minute)`;
  const whose = { key, address, either: `${key}, or without a valid key ${address}` }[budget];
  return {
    'X-RateLimit-Limit': header('Requests allowed per clock minute', int, true),
    'X-RateLimit-Remaining': header(`Requests left this minute in ${whose}`, int, true),
    'X-RateLimit-Reset': header('When the current minute window ends, in Unix epoch seconds', int),
    'X-Request-Id': header('Quote it when reporting a problem', text, true),
  };
}

export const RETRY_AFTER: Headers = { 'Retry-After': header('Seconds to wait before retrying', int, true) };

/** The realm the server names in its challenge (lib/http/caller.ts). */
export const WWW_AUTHENTICATE: Headers = {
  'WWW-Authenticate': header('`Bearer realm="reporting-api"`: send the key as a Bearer token or X-Api-Key', text, true),
};

export const VARY: Headers = {
  Vary: header('`Origin, Accept`, and `Accept-Encoding` when compressed: the answer depends on them'),
};

/** The document and the health check: cacheable, revalidated by ETag. */
export const CACHEABLE: Headers = {
  ETag: header('Entity tag of this answer: send it as If-None-Match to revalidate'),
  'Cache-Control': header('How long a cache may keep this answer'),
};

/** An answer made from the account's data (lib/http/validators.ts): revalidated on every use, never shared. */
export const ACCOUNT_DATA: Headers = {
  ETag: header("Weak entity tag of the account's data behind this answer: send it as If-None-Match to revalidate"),
  'Last-Modified': header("When the account's data last changed (at the earliest, today's start in UTC)"),
  'Cache-Control': header('`private, no-cache`: only the caller may keep it, and must revalidate before each use'),
};

export const CORS: Headers = {
  'Access-Control-Allow-Origin': header('`*`: any web page may read this document'),
};

/** The pages of a report: paging links in JSON, the totals in headers in CSV (which has no envelope). */
export const PAGED: Headers = {
  Link: header('RFC 8288 links to the first, prev, next and last pages (JSON answers)'),
  'X-Total-Rows': header('Rows in all pages (text/csv answers only)', int),
  'X-Total-Pages': header('Pages at this pageSize (text/csv answers only)', int),
};

/** A download's file name (ApiEndpoint.download): on every success, or only on the answers of one media type. */
export const attachment = ({ filename, onlyFor }: { filename: string; onlyFor?: string }): Headers => ({
  'Content-Disposition': header(
    `\`attachment; filename="${filename}"\`${onlyFor ? ` (${onlyFor} answers only)` : ''}`,
    text,
    !onlyFor,
  ),
});

/** The legacy feed's deprecation notice, on all its answers; on its JSON pages Link also holds the paging links. */
export const LEGACY: Headers = {
  Deprecation: header('`true`: this operation is deprecated', text, true),
  Sunset: header('When it stops answering (HTTP date)', text, true),
  Link: header(
    'RFC 8288: `</api/v1/reports/countries>; rel="successor-version"`, and on JSON pages the first, prev, next and last links',
    text,
    true,
  ),
};
