import { formatPct, formatUsd } from '@/lib/shared/format';
import type { SiteRevenue } from '@/lib/reports';
import { TopRowLink, TopTable, type TopColumn } from './top-table';

type TopSite = SiteRevenue & { href: string };

/**
 * The overview's top sites: revenue and share of the account's revenue; each name filters the dashboard to
 * that site, keeping the range.
 */
export function TopSitesTable({ rows, total }: { rows: TopSite[]; total: number }) {
  const columns: TopColumn<TopSite>[] = [
    { header: 'Site', cell: (site) => <TopRowLink href={site.href}>{site.name ?? 'Untitled site'}</TopRowLink> },
    { header: 'Revenue', cell: (site) => formatUsd(site.revenue), value: (site) => site.revenue },
    { header: 'Share', cell: (site) => formatPct(total > 0 ? site.revenue / total : 0) },
    { header: 'eCPM', cell: (site) => formatUsd(site.cpm) },
  ];
  return <TopTable caption="Top sites by revenue" columns={columns} rows={rows} rowKey={(site) => site.siteId} />;
}
