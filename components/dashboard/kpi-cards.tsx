import { Card } from '@/components/ui/card';
import type { Comparison } from '@/lib/dashboard/overview';
import { formatInt, formatPct, formatRange, formatUsd } from '@/lib/format';
import { Change } from './change';
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

/**
 * The five figures for the range, each with its change against the compared period, which the cards name
 * by its dates; a range ending today is compared without today (it is incomplete), and says so.
 */
export function KpiCards({ totals, comparison }: { totals: RevenueTotalResponse; comparison: Comparison | null }) {
  const against = comparison && formatRange(comparison.range.fromDate, comparison.range.toDate);
  return (
    <div className="space-y-2">
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
              {comparison && against && (
                <Change current={value(comparison.current)} previous={value(comparison.previous)} against={against} />
              )}
            </dd>
          </Card>
        ))}
      </dl>
      {comparison?.excludesToday && (
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          Changes leave out today, which is still coming in, and the same number of days of the compared period.
        </p>
      )}
    </div>
  );
}
