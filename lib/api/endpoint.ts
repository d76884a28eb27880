/** An endpoint of the API as the table (lib/api/endpoints.ts) declares it. */
import { z } from 'zod';
import { CSV_TYPE } from '@/lib/http/negotiate';
import type { KeyedEndpoint, Method } from '@/lib/http/api-route';
import type { QuerySchema } from '@/lib/query';

/** The document's groups of operations, each with what it holds. */
export const TAGS = {
  Sites: "The account's sites (games): their ids are what the reports' siteIds take",
  Reports: 'Revenue by range, country and site: totals, by country, the rows and their export',
  'API keys': "Create, list and revoke the account's keys",
  Activity: 'The activity log: every security-relevant event, append-only',
  Alerts: 'What the portal tells the account first: unusual revenue, data that stopped, money, reviews, expiring keys',
  Webhooks: "The account's events POSTed to its endpoints, signed per Standard Webhooks, with retries",
  Payments:
    'What the account is owed: its balance and monthly statements (estimated, finalized, paid), as JSON, CSV or PDF',
  Publishers: 'Operators: publisher accounts, their invitations, deactivation and reactivation',
  'Site review': 'Operators: add sites for publishers and move them through review (pending, approved, live)',
  Data: "Revenue in: the ad network's daily numbers, loaded by operators",
  Service: 'The health check and this document, without a key',
} as const;

/** Who may call: anyone, any valid key, or a key of the operator's account (checked by the service; documented here). */
type Access = 'public' | 'key' | 'operator';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the table holds endpoints of every input type
export interface ApiEndpoint<I = any> {
  method: Method;
  /** OpenAPI style: `/api/v1/api-keys/{id}`; the route file lives at the same path with `[id]`. */
  path: string;
  operationId: string;
  summary: string;
  /** What a reader needs beyond the summary: required, so that every operation of the document has one. */
  description: string;
  tag: keyof typeof TAGS;
  access: Access;
  /** The query parameters, parsed into the handler's typed input. */
  query?: QuerySchema<I>;
  pathParams?: z.ZodObject;
  /** A JSON body's schema, or the media types of a raw body. */
  body?: z.ZodType | { mediaTypes: readonly string[]; description: string };
  response: { status: 200; description: string; schema?: z.ZodType; mediaTypes?: readonly string[] };
  /** Statuses besides the ones every keyed endpoint may answer (401, 429, 503). */
  errors: number[];
  deprecated?: boolean;
  /**
   * One of the reporting service's own operations (its spec's endpoint table): it keeps the spec's shapes. Every
   * other operation follows the API's idioms (docs/architecture.md, "The API's idioms"; tests/unit/api-idioms.test.ts).
   */
  spec?: true;
  /** A file to save (Content-Disposition: attachment): its name, and the one media type that carries it, if not all. */
  download?: { filename: string; onlyFor?: string };
  /** Headers on every response of this operation. */
  headers?: Record<string, string>;
  /** How it is served; a public endpoint's handler gets no principal (lib/api/routes.ts). */
  run: Omit<KeyedEndpoint<Record<string, string>, I>, 'query' | 'headers' | 'public'>;
}

/** One row of the table, with the handler's input typed by the row's query schema. */
/** What a paged endpoint answers in, by Accept: its JSON page (under three media types) or the page as CSV. */
export const PAGED_TYPES = ['application/json', 'text/json', 'text/plain', CSV_TYPE] as const;

/** A path parameter that is a uuid. */
export const idParam = (name: string, description: string) => z.object({ [name]: z.uuid().meta({ description }) });

export const endpoint = <I = undefined>(row: ApiEndpoint<I>): ApiEndpoint => row;
