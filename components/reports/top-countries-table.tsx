import Link from 'next/link';
import { countryName } from '@/lib/shared/countries';
import { formatPct, formatUsd } from '@/lib/shared/format';
import type { RevenueByCountryResponse } from '@/lib/reports';

/** The overview's top countries; each name narrows the dashboard to that country, keeping the range. */
export function TopCountriesTable({ rows }: { rows: (RevenueByCountryResponse & { href: string | null })[] }) {
  return (
    <table className="w-full text-sm">
      <caption className="sr-only">Top countries by revenue</caption>
      <thead>
        <tr className="border-b border-zinc-200 text-left text-xs text-zinc-600 dark:border-zinc-800 dark:text-zinc-400">
          <th scope="col" className="py-2 font-medium">
            Country
          </th>
          <th scope="col" className="py-2 text-right font-medium">
            Revenue
          </th>
          <th scope="col" className="py-2 text-right font-medium">
            eCPM
          </th>
          <th scope="col" className="py-2 text-right font-medium">
            Fill rate
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.country} className="border-b border-zinc-100 last:border-0 dark:border-zinc-800/60">
            <td className="py-2">
              {row.country && row.href ? (
                <Link href={row.href} className="font-medium text-accent-700 hover:underline dark:text-accent-300">
                  {countryName(row.country) ?? row.country}
                </Link>
              ) : (
                'Unknown'
              )}
            </td>
            <td className="py-2 text-right">{formatUsd(row.revenueAmount)}</td>
            <td className="py-2 text-right">{formatUsd(row.cpm)}</td>
            <td className="py-2 text-right">{formatPct(row.fillRate)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
