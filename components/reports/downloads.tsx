'use client';

import * as Popover from '@radix-ui/react-popover';
import { ChevronDown, Download } from 'lucide-react';
import { useSearchParams } from 'next/navigation';
import { buttonClass } from '@/components/ui/button';
import { PopoverPanel } from '@/components/ui/popover';
import type { DownloadName } from '@/lib/dashboard/downloads';

const LABELS: Record<DownloadName, { label: string; detail: string }> = {
  daily: { label: 'By day', detail: 'One row per day, with a total' },
  sites: { label: 'By site', detail: 'One row per site, with a total' },
  countries: { label: 'By country', detail: 'One row per country, every page of the Countries table, with a total' },
  rows: { label: 'Rows', detail: 'One row per site × country × day, no total' },
};

/**
 * "Download" with the CSV files of this view: each link carries the page's URL state (range, sites, country,
 * the table's filter and sort) to its /export/… route, which names the file after the range.
 */
export function Downloads({ reports }: { reports: DownloadName[] }) {
  const query = useSearchParams().toString();
  return (
    <Popover.Root>
      <Popover.Trigger className={buttonClass('secondary')}>
        <Download aria-hidden className="size-4" />
        Download
        <ChevronDown aria-hidden className="size-4" />
      </Popover.Trigger>
      <PopoverPanel align="end" aria-label="Download CSV" className="w-72 p-1">
        <ul>
          {reports.map((report) => (
            <li key={report}>
              <a
                href={`/export/${report}${query ? `?${query}` : ''}`}
                download
                className="block rounded px-3 py-2 hover:bg-zinc-100 dark:hover:bg-zinc-800"
              >
                <span className="block text-sm font-medium">{LABELS[report].label} (CSV)</span>
                <span className="block text-xs text-zinc-600 dark:text-zinc-400">{LABELS[report].detail}</span>
              </a>
            </li>
          ))}
        </ul>
      </PopoverPanel>
    </Popover.Root>
  );
}
