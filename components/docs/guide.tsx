import type { ReactNode } from 'react';
import {
  MAX_CONCURRENT_REPORTS_PER_KEY,
  REQUEST_DEADLINE_MS,
  REQUEST_STATEMENT_TIMEOUT_MS,
} from '@/lib/platform/limits';
import { Card } from '@/components/ui/card';
import {
  MAX_FILTER_LIST_VALUES,
  MAX_FILTER_TERMS,
  MAX_RANGE_DAYS,
  PAGE_SIZE_MAX,
  DEFAULT_PAGE_SIZE,
  SEARCH_MAX_LENGTH,
} from '@/lib/query';
import { keyLimit } from '@/lib/ratelimit';
import { MAX_ACTIVE_KEYS } from '@/lib/keys';
import { Code } from './operation-card';

const C = ({ children }: { children: ReactNode }) => <code className="font-mono text-[0.8125rem]">{children}</code>;

function Topic({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="space-y-2">
      <h3 id={`${id}-title`} className="font-semibold">
        {title}
      </h3>
      <div className="space-y-2 text-sm text-zinc-700 dark:text-zinc-300">{children}</div>
    </section>
  );
}

/** How the API behaves across operations: the rules a reader needs before the per-operation details. */
export function Guide({ origin }: { origin: string }) {
  return (
    <Card className="space-y-6 p-6">
      <h2 className="text-lg font-semibold">Guide</h2>
      <Topic id="keys" title="Keys">
        <p>
          Create a key in the dashboard (API keys) and send it as <C>X-Api-Key: &lt;key&gt;</C> or{' '}
          <C>Authorization: Bearer &lt;key&gt;</C>. A missing, unknown, revoked or expired key is a <C>401</C>. A{' '}
          <strong>site-scoped</strong> key reads only its sites: asking for another is a <C>403</C>, and rows, their
          export and key management need an account-level key. An account holds at most {MAX_ACTIVE_KEYS} active keys;
          creating one more is a <C>409</C> until one is revoked or expires.
        </p>
        <Code label="A first request">{`curl -H "X-Api-Key: $API_KEY" "${origin}/api/v1/reports/totals"`}</Code>
      </Topic>
      <Topic id="reports" title="Totals, by country and rows">
        <p>
          Three reports over the same data: <strong>totals</strong> (<C>/api/v1/reports/totals</C>), one set of sums;{' '}
          <strong>by country</strong> (<C>/api/v1/reports/by-country</C>), one row per viewer country; and{' '}
          <strong>rows</strong> (<C>/api/v1/reports/countries</C>), the data as stored, one row per site × viewer
          country × UTC day, also as one download (<C>/api/v1/reports/countries/export</C>). Money is summed exactly:
          the totals equal by country summed, and the rows summed, to the micro-dollar.
        </p>
      </Topic>
      <Topic id="dates" title="Dates and sites">
        <p>
          Days are UTC. <C>fromDate</C> and <C>toDate</C> (<C>YYYY-MM-DD</C>) are inclusive; without them a report
          covers the account&apos;s default range (30 days unless changed) ending today, and a range spans at most{' '}
          {MAX_RANGE_DAYS} days. <C>siteIds</C> is a comma-separated list of site ids; without it every site the key may
          read is included.
        </p>
      </Topic>
      <Topic id="paging" title="Paging and sorting">
        <p>
          <C>page</C> (from 1) and <C>pageSize</C> (1–{PAGE_SIZE_MAX}, default {DEFAULT_PAGE_SIZE}); the answer&apos;s{' '}
          <C>meta</C> has <C>totalRows</C> and <C>totalPages</C>, and a page past the end is empty. <C>sortBy</C> is any
          field of the row, <C>sortDirection</C> <C>asc</C> or <C>desc</C>; ties are broken so pages never overlap or
          skip rows.
        </p>
      </Topic>
      <Topic id="filters" title="Search, Filter and FilterList">
        <p>
          <C>Search</C> (up to {SEARCH_MAX_LENGTH} characters) matches a country by code or English name and, in rows, a
          site by name. <C>Filter</C> is terms <C>field op value</C> with <C>== != &gt; &gt;= &lt; &lt;= =@</C>{' '}
          (contains) <C>!@</C>; <C>,</C> is OR and binds tighter than <C>;</C>, AND (<C>a,b;c</C> is a OR b, and c), at
          most {MAX_FILTER_TERMS} terms. <C>FilterList[country]=US,CA</C> keeps rows whose field is any of the values
          (at most {MAX_FILTER_LIST_VALUES} values in all). Parameter names match in any letter case; an unknown
          parameter is a <C>400</C> that names it.
        </p>
        <Code label="Filter example">{`curl -H "X-Api-Key: $API_KEY" \\\n  "${origin}/api/v1/reports/by-country?sortBy=revenueAmount&sortDirection=desc&Filter=cpm%3E2%3Bcountry!%3DUS"`}</Code>
      </Topic>
      <Topic id="formats" title="Formats">
        <p>
          JSON as <C>application/json</C>, <C>text/json</C> or <C>text/plain</C> by <C>Accept</C>; the paged reports
          also as <C>text/csv</C>. The export streams every matching row as CSV or <C>application/x-ndjson</C>. Money is
          USD; errors are RFC 9457 <C>application/problem+json</C> with <C>errors[]</C> naming each bad parameter.
        </p>
      </Topic>
      <Topic id="limits" title="Rate limits">
        <p>
          Each key may make {keyLimit()} requests per clock minute; every answer carries <C>X-RateLimit-Limit</C> and{' '}
          <C>X-RateLimit-Remaining</C>, and a <C>429</C> says in <C>Retry-After</C> how many seconds to wait. Requests
          without a valid key spend a smaller budget of the client address. A key may have{' '}
          {MAX_CONCURRENT_REPORTS_PER_KEY} report requests running at once; one more is a <C>429</C> with{' '}
          <C>Retry-After: 1</C>. A query that runs longer than {REQUEST_STATEMENT_TIMEOUT_MS / 1000} s is stopped and
          answered <C>503</C>: ask for less (fewer or narrower <C>Filter</C> terms, fewer sites, a shorter range). Every
          request is answered within {REQUEST_DEADLINE_MS / 1000} s: when the database is unavailable, a <C>503</C> with{' '}
          <C>Retry-After</C>.
        </p>
      </Topic>
      <Topic id="legacy" title="Moving off the legacy feed">
        <p>
          <C>GET /api/v1/revenues/countries</C> is deprecated (sunset 30 June 2027). Call{' '}
          <C>GET /api/v1/reports/countries</C> with the same parameters and the key in the <C>X-Api-Key</C> header
          instead of <C>?apiKey=</C>: the rows are the same.
        </p>
      </Topic>
    </Card>
  );
}
