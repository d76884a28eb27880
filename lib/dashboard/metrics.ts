import { formatCompact, formatInt, formatPct, formatUsd, formatUsdCompact } from '@/lib/shared/format';
import type { Metrics } from '@/lib/shared/money';
import type { RevenueByCountryResponse, RevenueTotalResponse } from '@/lib/reports';

/**
 * The five figures the dashboard shows for any set of rows (cards, chart, table columns), in one order, each
 * with its display format and the shorter one of a chart axis. The chart's metric is `?metric=` in the URL.
 */
export const METRICS = [
  { id: 'revenue', label: 'Revenue', unit: 'usd', format: formatUsd, axis: formatUsdCompact, additive: true },
  { id: 'impressions', label: 'Impressions', unit: 'count', format: formatInt, axis: formatCompact, additive: true },
  { id: 'adRequests', label: 'Ad requests', unit: 'count', format: formatInt, axis: formatCompact, additive: true },
  { id: 'cpm', label: 'eCPM', unit: 'usd', format: formatUsd, axis: formatUsd, additive: false },
  { id: 'fillRate', label: 'Fill rate', unit: 'ratio', format: formatPct, axis: formatPct, additive: false },
] as const satisfies readonly {
  id: keyof Metrics;
  label: string;
  /** What a number means: dollars, a count, or a ratio shown (and typed) as a percentage. */
  unit: 'usd' | 'count' | 'ratio';
  format: (n: number) => string;
  axis: (n: number) => string;
  /** A sum over days (a total means something); eCPM and fill rate are ratios of sums. */
  additive: boolean;
}[];

export type Metric = (typeof METRICS)[number];
export type MetricId = Metric['id'];

export const metricById = (id: string | null | undefined): Metric => METRICS.find((m) => m.id === id) ?? METRICS[0];

/** The totals report's figures under the dashboard's metric names. */
export const metricsOfTotals = (t: RevenueTotalResponse): Record<MetricId, number> => ({
  revenue: t.totalRevenue,
  impressions: t.totalImpressions,
  adRequests: t.totalRequests,
  cpm: t.averageCpm,
  fillRate: t.fillRate,
});

/** A by-country row's figures under the dashboard's metric names. */
export const metricsOfByCountry = (row: RevenueByCountryResponse): Record<MetricId, number> => ({
  revenue: row.revenueAmount,
  impressions: row.impressions,
  adRequests: row.adRequests,
  cpm: row.cpm,
  fillRate: row.fillRate,
});

/** The by-country report's field (its `sortBy`) of each metric. */
export const BY_COUNTRY_FIELD: Record<MetricId, keyof RevenueByCountryResponse> = {
  revenue: 'revenueAmount',
  impressions: 'impressions',
  adRequests: 'adRequests',
  cpm: 'cpm',
  fillRate: 'fillRate',
};
