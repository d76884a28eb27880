import type { Metadata } from 'next';
import Link from 'next/link';
import { PageHeader } from '@/components/dashboard/page-header';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { requireUser } from '@/lib/auth/session';
import { viewHref, type SearchParams } from '@/lib/dashboard/url';
import { formatDay, formatInt } from '@/lib/format';
import { listSites, type SiteResponse } from '@/lib/services/sites';

export const metadata: Metadata = { title: 'Sites · Publisher Portal' };

const STATUS: Record<NonNullable<SiteResponse['status']>, { tone: BadgeTone; label: string }> = {
  live: { tone: 'green', label: 'Live' },
  approved: { tone: 'blue', label: 'Approved' },
  pending: { tone: 'amber', label: 'Pending' },
};

export default async function SitesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  const { principal } = await requireUser();
  const sites = await listSites(principal);
  return (
    <>
      <PageHeader title="Sites" description={`${sites.length} site${sites.length === 1 ? '' : 's'} on this account`} />
      <Card className="relative overflow-x-auto">
        {sites.length === 0 ? (
          <p className="p-10 text-center text-sm text-zinc-600 dark:text-zinc-400">No sites on this account yet.</p>
        ) : (
          <table className="w-full min-w-[48rem] text-sm">
            <caption className="sr-only">Sites of the account</caption>
            <thead className="bg-zinc-50 text-left text-xs text-zinc-600 dark:bg-zinc-900 dark:text-zinc-400">
              <tr>
                <th scope="col" className="px-4 py-3 font-medium">
                  Site
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Framework
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Status
                </th>
                <th scope="col" className="px-4 py-3 text-right font-medium">
                  DAU
                </th>
                <th scope="col" className="px-4 py-3 text-right font-medium">
                  MAU
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Added
                </th>
                <th scope="col" className="px-4 py-3">
                  <span className="sr-only">Reports</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
              {sites.map((site) => (
                <tr key={site.siteId}>
                  <td className="px-4 py-3">
                    <p className="font-medium">{site.name ?? 'Untitled site'}</p>
                    {site.url && (
                      <a
                        href={site.url}
                        className="text-xs text-zinc-600 hover:underline dark:text-zinc-400"
                        rel="noopener noreferrer"
                        target="_blank"
                      >
                        {site.url.replace(/^https?:\/\//, '')}
                      </a>
                    )}
                  </td>
                  <td className="px-4 py-3 capitalize">{site.framework ?? '—'}</td>
                  <td className="px-4 py-3">
                    {site.status ? <Badge tone={STATUS[site.status].tone}>{STATUS[site.status].label}</Badge> : '—'}
                  </td>
                  <td className="px-4 py-3 text-right">
                    {site.dailyActiveUsers === null ? '—' : formatInt(site.dailyActiveUsers)}
                  </td>
                  <td className="px-4 py-3 text-right">
                    {site.monthlyActiveUsers === null ? '—' : formatInt(site.monthlyActiveUsers)}
                  </td>
                  <td className="px-4 py-3 whitespace-nowrap">{formatDay(site.createdAt.slice(0, 10))}</td>
                  <td className="px-4 py-3 text-right">
                    <Link
                      href={viewHref('/', params, { sites: site.siteId })}
                      className="font-medium whitespace-nowrap text-accent-700 hover:underline dark:text-accent-300"
                    >
                      View revenue<span className="sr-only"> of {site.name}</span> →
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
    </>
  );
}
