'use client';

import { useSearchParams } from 'next/navigation';
import { useMemo } from 'react';
import { LazyTrendChart } from '@/components/reports/charts/lazy-charts';
import { Card } from '@/components/ui/card';
import { cn } from '@/components/ui/cn';
import { METRICS, metricById } from '@/lib/dashboard/metrics';
import { paramOf, withChanges } from '@/lib/dashboard/url';
import { type ChartAlert, type PackedDays, unpackDays } from '@/lib/dashboard/daily-series';

/**
 * The overview's daily chart with its metric switch. The metric is `?metric=` in the URL (shareable), changed
 * in place: every metric of every day is already here, so switching asks the server for nothing.
 */
export function TrendCard(props: {
  daily: PackedDays;
  previousDaily: PackedDays;
  comparedLabel: string | null;
  today: string;
  hasData: boolean;
  alerts: ChartAlert[];
}) {
  const searchParams = useSearchParams();
  const metric = metricById(paramOf(searchParams, 'metric'));
  const daily = useMemo(() => unpackDays(props.daily), [props.daily]);
  const previousDaily = useMemo(() => unpackDays(props.previousDaily), [props.previousDaily]);
  const choose = (id: string) => {
    const params = withChanges(searchParams.toString(), { metric: id === METRICS[0].id ? null : id });
    window.history.replaceState(null, '', `?${params}`);
  };
  return (
    <Card className="p-4 md:p-6">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-base font-semibold">{metric.label} per day</h2>
        <div role="group" aria-label="Chart metric" className="flex flex-wrap gap-1">
          {METRICS.map((m) => (
            <button
              key={m.id}
              type="button"
              aria-pressed={m.id === metric.id}
              onClick={() => choose(m.id)}
              className={cn(
                'rounded-md px-2.5 py-1 text-xs font-medium',
                m.id === metric.id
                  ? 'bg-accent-600 text-white'
                  : 'text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800',
              )}
            >
              {m.label}
            </button>
          ))}
        </div>
      </div>
      {props.hasData ? (
        <LazyTrendChart
          metric={metric.id}
          daily={daily}
          previousDaily={previousDaily}
          comparedLabel={props.comparedLabel}
          today={props.today}
          alerts={props.alerts}
        />
      ) : (
        <p className="py-16 text-center text-sm text-zinc-600 dark:text-zinc-400">
          No revenue in this period for the selected sites.
        </p>
      )}
    </Card>
  );
}
