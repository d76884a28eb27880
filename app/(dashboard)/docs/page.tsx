import type { Metadata } from 'next';
import Link from 'next/link';
import { PageHeader } from '@/components/dashboard/page-header';
import { Card } from '@/components/ui/card';
import { requireUser } from '@/lib/auth/session';

export const metadata: Metadata = { title: 'API docs · Publisher Portal' };

const ENDPOINTS: [string, string, string][] = [
  ['GET', '/api/v1/sites', 'Sites of the account (or of a site-scoped key)'],
  ['GET', '/api/v1/reports/totals', 'Totals for siteIds, fromDate, toDate'],
  ['GET', '/api/v1/reports/by-country', 'Revenue by viewer country, paged, sortable, filterable'],
  ['GET', '/api/v1/reports/countries', 'One row per site × country × day (account-level keys)'],
  ['GET', '/api/v1/api-keys', 'Keys of the account'],
  ['POST', '/api/v1/api-keys', 'Create a key: label, siteIds, expiresAt'],
  ['DELETE', '/api/v1/api-keys/{id}', 'Revoke a key'],
];

const Code = ({ children }: { children: string }) => (
  <pre tabIndex={0} className="overflow-x-auto rounded-md bg-zinc-950 p-4 font-mono text-xs text-zinc-100">{children}</pre>
);

export default async function DocsPage() {
  await requireUser();
  return (
    <>
      <PageHeader title="API docs" description="Pull the same numbers into your own scripts and BI tools." />
      <div className="max-w-3xl space-y-6">
        <Card className="space-y-3 p-6">
          <h2 className="font-semibold">Authenticate</h2>
          <p className="text-sm text-zinc-700 dark:text-zinc-300">
            Create a key on the <Link href="/keys" className="font-medium text-accent-700 underline dark:text-accent-300">API keys</Link> page
            and send it in the <code className="font-mono">X-Api-Key</code> header (or as <code className="font-mono">Authorization: Bearer</code>).
          </p>
          <Code>{`curl -H "X-Api-Key: $KEY" \\\n  "https://<this host>/api/v1/reports/by-country?fromDate=2026-10-01&toDate=2026-10-31&sortBy=revenueAmount&sortDirection=desc"`}</Code>
        </Card>
        <Card className="p-6">
          <h2 className="mb-3 font-semibold">Endpoints</h2>
          <table className="w-full text-sm">
            <caption className="sr-only">API endpoints</caption>
            <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
              {ENDPOINTS.map(([method, path, what]) => (
                <tr key={method + path}>
                  <td className="py-2 pr-3 font-mono text-xs font-semibold">{method}</td>
                  <td className="py-2 pr-3 font-mono text-xs">{path}</td>
                  <td className="py-2 text-zinc-700 dark:text-zinc-300">{what}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
        <Card className="space-y-2 p-6 text-sm text-zinc-700 dark:text-zinc-300">
          <h2 className="font-semibold text-zinc-900 dark:text-zinc-100">Paging, sorting and filters</h2>
          <p><code className="font-mono">page</code>, <code className="font-mono">pageSize</code> (1–1000), <code className="font-mono">sortBy</code> any row field, <code className="font-mono">sortDirection</code> asc or desc.</p>
          <p><code className="font-mono">Filter=cpm&gt;2;country==US,country==CA</code>: <code className="font-mono">;</code> is and, <code className="font-mono">,</code> is or; operators == != &gt; &gt;= &lt; &lt;= =@ (contains) !@.</p>
          <p>Limits: 120 requests per minute per key, reported in <code className="font-mono">X-RateLimit-Remaining</code>. Errors are RFC 9457 problem+json naming the parameter.</p>
        </Card>
      </div>
    </>
  );
}
