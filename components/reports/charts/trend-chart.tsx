'use client';

import {
  Area,
  AreaChart,
  CartesianGrid,
  Legend,
  Line,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { METRICS, metricById, type MetricId } from '@/lib/dashboard/metrics';
import { formatDay } from '@/lib/shared/format';
import type { DailyPoint } from '@/lib/reports';
import type { ChartAlert } from '@/lib/dashboard/daily-series';

interface Row extends DailyPoint {
  /** The compared period's day at the same position, and its value of the metric. */
  previousDay?: string;
  previous?: number;
  incomplete: boolean;
  /** The day's revenue alerts, in words. */
  alerts: string[];
}

export interface TrendChartProps {
  /** What the chart draws: one of the dashboard's five metrics. */
  metric: MetricId;
  daily: DailyPoint[];
  /** The compared period's days (empty for no comparison), drawn against the range's days in order. */
  previousDaily: DailyPoint[];
  /** The compared period's dates, for the legend; null for no comparison. */
  comparedLabel: string | null;
  /** Today (UTC): its point is still coming in and is marked so. */
  today: string;
  /** Days whose revenue left its usual range (lib/alerts): marked, and told in the day's tooltip. */
  alerts: ChartAlert[];
}

const longDay = (day: string) => formatDay(day, { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' });

/** The day's figures, the chart's metric first and beside it the compared day's. */
function DayTooltip(props: { active?: boolean; payload?: { payload: Row }[]; metric: MetricId }) {
  const { active, payload } = props;
  const row = payload?.[0]?.payload;
  if (!active || !row) return null;
  const chosen = metricById(props.metric);
  const lines: [string, string][] = [
    [chosen.label, chosen.format(row[chosen.id])],
    ...(row.previousDay && row.previous !== undefined
      ? [[longDay(row.previousDay), chosen.format(row.previous)] as [string, string]]
      : []),
    ...METRICS.filter((m) => m.id !== chosen.id).map((m): [string, string] => [m.label, m.format(row[m.id])]),
  ];
  return (
    <div className="rounded-md border border-zinc-200 bg-white p-3 text-xs shadow-md dark:border-zinc-700 dark:bg-zinc-900">
      <p className="mb-1 font-medium">
        {longDay(row.day)}
        {row.incomplete && <span className="font-normal text-zinc-600 dark:text-zinc-400"> · incomplete</span>}
      </p>
      <dl className="grid grid-cols-[auto_auto] gap-x-4 gap-y-0.5">
        {lines.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-zinc-600 dark:text-zinc-400">{label}</dt>
            <dd className="text-right font-medium">{value}</dd>
          </div>
        ))}
      </dl>
      {row.alerts.map((message) => (
        <p key={message} className="mt-2 max-w-72 border-t border-zinc-200 pt-2 dark:border-zinc-700">
          {message}
        </p>
      ))}
    </div>
  );
}

/**
 * One metric per day as an area, the compared period as a dashed line named by its dates in the legend, every
 * day drawn; today, still coming in, is marked. It fills its box; components/reports/charts/lazy-charts.tsx gives it
 * one (and its accessible summary) and loads it late.
 */
export function TrendChart({ metric, daily, previousDaily, comparedLabel, today, alerts }: TrendChartProps) {
  const chosen = metricById(metric);
  const rows: Row[] = daily.map((d, i) => ({
    ...d,
    previousDay: previousDaily[i]?.day,
    previous: previousDaily[i]?.[chosen.id],
    incomplete: d.day === today,
    alerts: alerts.filter((a) => a.day === d.day).map((a) => a.message),
  }));
  // One marker a day: a drop's when the day has one (a drop and a spike of one day are different sites).
  const marked = [...new Map(alerts.map((a) => [a.day, a.drop] as const)).entries()];
  const showsToday = rows.at(-1)?.incomplete ?? false;
  return (
    <ResponsiveContainer width="100%" height="100%">
      <AreaChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <defs>
          <linearGradient id="revenueFill" x1="0" y1="0" x2="0" y2="1">
            <stop offset="0%" stopColor="var(--color-accent-500)" stopOpacity={0.35} />
            <stop offset="100%" stopColor="var(--color-accent-500)" stopOpacity={0.02} />
          </linearGradient>
        </defs>
        <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="currentColor" strokeOpacity={0.12} />
        <XAxis
          dataKey="day"
          tickFormatter={(day: string) => formatDay(day, { month: 'short', day: 'numeric' })}
          tick={{ fontSize: 12, fill: 'currentColor' }}
          tickLine={false}
          axisLine={false}
          minTickGap={24}
        />
        <YAxis
          tickFormatter={(n: number) => chosen.axis(n)}
          tick={{ fontSize: 12, fill: 'currentColor' }}
          tickLine={false}
          axisLine={false}
          width={64}
        />
        <Tooltip content={<DayTooltip metric={chosen.id} />} />
        <Legend verticalAlign="top" align="right" height={28} iconType="plainline" wrapperStyle={{ fontSize: 12 }} />
        {showsToday && (
          <ReferenceLine
            x={today}
            stroke="currentColor"
            strokeOpacity={0.35}
            strokeDasharray="2 3"
            label={{ value: 'Today (incomplete)', position: 'insideTopRight', fontSize: 11, fill: 'currentColor' }}
          />
        )}
        {marked.map(([day, drop]) => (
          <ReferenceLine
            key={day}
            x={day}
            stroke={drop ? '#ef4444' : '#10b981'}
            strokeDasharray="3 3"
            label={{ value: drop ? '▼' : '▲', position: 'top', fontSize: 11, fill: drop ? '#dc2626' : '#059669' }}
          />
        ))}
        {comparedLabel && (
          <Line
            type="monotone"
            dataKey="previous"
            name={comparedLabel}
            stroke="currentColor"
            strokeOpacity={0.45}
            strokeDasharray="4 4"
            dot={false}
            isAnimationActive={false}
          />
        )}
        <Area
          type="monotone"
          dataKey={chosen.id}
          name={chosen.label}
          stroke="var(--color-accent-600)"
          strokeWidth={2}
          fill="url(#revenueFill)"
          isAnimationActive={false}
        />
      </AreaChart>
    </ResponsiveContainer>
  );
}
