import { countryName } from '@/lib/shared/countries';
import { formatPct, formatUsd } from '@/lib/shared/format';
import type { RevenueByCountryResponse } from '@/lib/reports';
import { TopRowLink, TopTable, type TopColumn } from './top-table';

type TopCountry = RevenueByCountryResponse & { href: string | null };

const COLUMNS: TopColumn<TopCountry>[] = [
  {
    header: 'Country',
    cell: (row) =>
      row.country && row.href ? (
        <TopRowLink href={row.href}>{countryName(row.country) ?? row.country}</TopRowLink>
      ) : (
        'Unknown'
      ),
  },
  { header: 'Revenue', cell: (row) => formatUsd(row.revenueAmount) },
  { header: 'eCPM', cell: (row) => formatUsd(row.cpm) },
  { header: 'Fill rate', cell: (row) => formatPct(row.fillRate) },
];

/** The overview's top countries; each name narrows the dashboard to that country, keeping the range. */
export function TopCountriesTable({ rows }: { rows: TopCountry[] }) {
  return <TopTable caption="Top countries by revenue" columns={COLUMNS} rows={rows} rowKey={(row) => row.country} />;
}
