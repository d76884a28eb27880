import { ArrowDownRight, ArrowUpRight, Minus } from 'lucide-react';
import { Card } from '@/components/ui/card';
import { cn } from '@/components/ui/cn';
import { formatInt, formatPct, formatUsd, relativeChange } from '@/lib/format';
import type { RevenueTotalResponse } from '@/lib/services/reports';

const KPIS: {
  label: string;
  value: (t: RevenueTotalResponse) => number;
  format: (n: number) => string;
  testId: string;
}[] = [
  { label: 'Revenue', value: (t) => t.totalRevenue, format: formatUsd, testId: 'kpi-revenue' },
  { label: 'Impressions', value: (t) => t.totalImpressions, format: formatInt, testId: 'kpi-impressions' },
  { label: 'Ad requests', value: (t) => t.totalRequests, format: formatInt, testId: 'kpi-requests' },
  { label: 'eCPM', value: (t) => t.averageCpm, format: formatUsd, testId: 'kpi-ecpm' },
  { label: 'Fill rate', value: (t) => t.fillRate, format: formatPct, testId: 'kpi-fill-rate' },
];

/** Change against the previous period: arrow, sign and words, so colour is never the only signal. */
function Change({ current, previous }: { current: number; previous: number }) {
  const change = relativeChange(current, previous);
  if (change === null)
    return <span className="text-xs text-zinc-600 dark:text-zinc-400">No data in the previous period</span>;
  const flat = Math.abs(change) < 0.0005;
  const Icon = flat ? Minus : change > 0 ? ArrowUpRight : ArrowDownRight;
  const text = flat ? 'No change' : `${change > 0 ? '+' : '−'}${formatPct(Math.abs(change))}`;
  return (
    <span
      className={cn(
        'inline-flex items-center gap-0.5 text-xs font-medium',
        flat
          ? 'text-zinc-600 dark:text-zinc-400'
          : change > 0
            ? 'text-emerald-700 dark:text-emerald-400'
            : 'text-red-700 dark:text-red-400',
      )}
    >
      <Icon aria-hidden className="size-3.5" />
      {text}
      <span className="font-normal text-zinc-600 dark:text-zinc-400">&nbsp;vs previous period</span>
    </span>
  );
}

export function KpiCards({ totals, previous }: { totals: RevenueTotalResponse; previous: RevenueTotalResponse }) {
  return (
    <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-5">
      {KPIS.map(({ label, value, format, testId }) => (
        <Card key={label} className="p-4">
          <dt className="text-sm text-zinc-600 dark:text-zinc-400">{label}</dt>
          <dd className="mt-1 space-y-1">
            <span
              data-testid={testId}
              data-value={value(totals)}
              className="block text-2xl font-semibold tracking-tight"
            >
              {format(value(totals))}
            </span>
            <Change current={value(totals)} previous={value(previous)} />
          </dd>
        </Card>
      ))}
    </dl>
  );
}
