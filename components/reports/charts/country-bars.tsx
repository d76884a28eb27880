'use client';

import { Bar, BarChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { countryName } from '@/lib/shared/countries';
import { formatUsd, formatUsdCompact } from '@/lib/shared/format';

export interface CountryBar {
  country: string | null;
  revenueAmount: number;
}

/**
 * Top countries by revenue as horizontal bars (the table beside it carries the exact figures). It fills its
 * box; components/reports/charts/lazy-charts.tsx gives it one and loads it late.
 */
export function CountryBars({ rows }: { rows: CountryBar[] }) {
  const data = rows.map((r) => ({
    name: r.country ? (countryName(r.country) ?? r.country) : 'Unknown',
    revenue: r.revenueAmount,
  }));
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={data} layout="vertical" margin={{ top: 0, right: 8, bottom: 0, left: 0 }}>
        <XAxis
          type="number"
          tickFormatter={(n: number) => formatUsdCompact(n)}
          tick={{ fontSize: 12, fill: 'currentColor' }}
          tickLine={false}
          axisLine={false}
        />
        <YAxis
          type="category"
          dataKey="name"
          width={110}
          tick={{ fontSize: 12, fill: 'currentColor' }}
          tickLine={false}
          axisLine={false}
        />
        <Tooltip formatter={(value) => formatUsd(Number(value))} cursor={{ fillOpacity: 0.08 }} />
        <Bar
          dataKey="revenue"
          name="Revenue"
          fill="var(--color-accent-500)"
          radius={[0, 4, 4, 0]}
          isAnimationActive={false}
        />
      </BarChart>
    </ResponsiveContainer>
  );
}
