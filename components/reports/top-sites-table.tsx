import Link from 'next/link';
import { formatPct, formatUsd } from '@/lib/shared/format';
import type { SiteRevenue } from '@/lib/reports';

/**
 * The overview's top sites: revenue and share of the account's revenue; each name filters the dashboard to
 * that site, keeping the range.
 */
export function TopSitesTable({ rows, total }: { rows: (SiteRevenue & { href: string })[]; total: number }) {
  return (
    <table className="w-full text-sm">
      <caption className="sr-only">Top sites by revenue</caption>
      <thead>
        <tr className="border-b border-zinc-200 text-left text-xs text-zinc-600 dark:border-zinc-800 dark:text-zinc-400">
          <th scope="col" className="py-2 font-medium">
            Site
          </th>
          <th scope="col" className="py-2 text-right font-medium">
            Revenue
          </th>
          <th scope="col" className="py-2 text-right font-medium">
            Share
          </th>
          <th scope="col" className="py-2 text-right font-medium">
            eCPM
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((site) => (
          <tr key={site.siteId} className="border-b border-zinc-100 last:border-0 dark:border-zinc-800/60">
            <td className="py-2">
              <Link href={site.href} className="font-medium text-accent-700 hover:underline dark:text-accent-300">
                {site.name ?? 'Untitled site'}
              </Link>
            </td>
            <td className="py-2 text-right" data-value={site.revenue}>
              {formatUsd(site.revenue)}
            </td>
            <td className="py-2 text-right">{formatPct(total > 0 ? site.revenue / total : 0)}</td>
            <td className="py-2 text-right">{formatUsd(site.cpm)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
