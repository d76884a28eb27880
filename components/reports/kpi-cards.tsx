import { Card } from '@/components/ui/card';
import type { Comparison } from '@/lib/dashboard/overview';
import { METRICS, metricsOfTotals } from '@/lib/dashboard/metrics';
import { formatRange } from '@/lib/shared/format';
import { Change } from './change';
import type { RevenueTotalResponse } from '@/lib/reports';

/**
 * The five figures for the range, each with its change against the compared period, which the cards name
 * by its dates; a range ending today is compared without today (it is incomplete), and says so.
 */
export function KpiCards({ totals, comparison }: { totals: RevenueTotalResponse; comparison: Comparison | null }) {
  const against = comparison && formatRange(comparison.range.fromDate, comparison.range.toDate);
  const values = metricsOfTotals(totals);
  const current = comparison && metricsOfTotals(comparison.current);
  const previous = comparison && metricsOfTotals(comparison.previous);
  return (
    <div className="space-y-2">
      <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-5">
        {METRICS.map(({ id, label, format }) => (
          <Card key={id} className="p-4">
            <dt className="text-sm text-zinc-600 dark:text-zinc-400">{label}</dt>
            <dd className="mt-1 space-y-1">
              <span
                data-testid={`kpi-${id}`}
                data-value={values[id]}
                className="block text-2xl font-semibold tracking-tight"
              >
                {format(values[id])}
              </span>
              {current && previous && against && (
                <Change current={current[id]} previous={previous[id]} against={against} />
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
