'use client';

import { Area, AreaChart, CartesianGrid, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatDay, formatInt, formatPct, formatUsd, formatUsdCompact } from '@/lib/format';
import type { DailyPoint } from '@/lib/services/daily';

interface Row extends DailyPoint {
  previous: number;
}

function DayTooltip({ active, payload }: { active?: boolean; payload?: { payload: Row }[] }) {
  const row = payload?.[0]?.payload;
  if (!active || !row) return null;
  const lines: [string, string][] = [
    ['Revenue', formatUsd(row.revenue)],
    ['Previous period', formatUsd(row.previous)],
    ['Impressions', formatInt(row.impressions)],
    ['Ad requests', formatInt(row.adRequests)],
    ['Clicks', formatInt(row.clicks)],
    ['eCPM', formatUsd(row.cpm)],
    ['Fill rate', formatPct(row.fillRate)],
  ];
  return (
    <div className="rounded-md border border-zinc-200 bg-white p-3 text-xs shadow-md dark:border-zinc-700 dark:bg-zinc-900">
      <p className="mb-1 font-medium">
        {formatDay(row.day, { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' })}
      </p>
      <dl className="grid grid-cols-[auto_auto] gap-x-4 gap-y-0.5">
        {lines.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-zinc-600 dark:text-zinc-400">{label}</dt>
            <dd className="text-right font-medium">{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/**
 * Daily revenue as an area, the previous period of equal length as a dashed line, every day drawn. It fills
 * its box; components/charts/lazy-charts.tsx gives it one (and its accessible summary) and loads it late.
 */
export function RevenueChart({ daily, previousDaily }: { daily: DailyPoint[]; previousDaily: DailyPoint[] }) {
  const rows: Row[] = daily.map((d, i) => ({ ...d, previous: previousDaily[i]?.revenue ?? 0 }));
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
          tickFormatter={(n: number) => formatUsdCompact(n)}
          tick={{ fontSize: 12, fill: 'currentColor' }}
          tickLine={false}
          axisLine={false}
          width={64}
        />
        <Tooltip content={<DayTooltip />} />
        <Line
          type="monotone"
          dataKey="previous"
          name="Previous period"
          stroke="currentColor"
          strokeOpacity={0.45}
          strokeDasharray="4 4"
          dot={false}
          isAnimationActive={false}
        />
        <Area
          type="monotone"
          dataKey="revenue"
          name="Revenue"
          stroke="var(--color-accent-600)"
          strokeWidth={2}
          fill="url(#revenueFill)"
          isAnimationActive={false}
        />
      </AreaChart>
    </ResponsiveContainer>
  );
}
