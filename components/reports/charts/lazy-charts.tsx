'use client';

import dynamic from 'next/dynamic';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { CountryBar } from './country-bars';
import { MAP_HEIGHT, MAP_WIDTH } from './map-classes';
import type { TrendChartProps } from './trend-chart';
import { metricById } from '@/lib/dashboard/metrics';

/**
 * The overview's charts and the Countries map, loaded late: recharts is most of the page's JavaScript, and the figures that matter
 * first (the KPI cards) are plain server-rendered text. Each chart's code is fetched only when its box comes
 * near the viewport (at once on a wide screen, on scrolling on a phone), and its box has its final size from
 * the start, so nothing moves when it arrives. The figure and its text summary are there before the chart.
 */

function ChartSkeleton() {
  return <div aria-hidden className="h-full w-full animate-pulse rounded-md bg-zinc-100 dark:bg-zinc-800/60" />;
}

const TrendChart = dynamic(() => import('./trend-chart').then((m) => m.TrendChart), {
  ssr: false,
  loading: ChartSkeleton,
});
const CountryBars = dynamic(() => import('./country-bars').then((m) => m.CountryBars), {
  ssr: false,
  loading: ChartSkeleton,
});

const WorldShapes = dynamic(() => import('./world-shapes').then((m) => m.WorldShapes), {
  ssr: false,
  loading: ChartSkeleton,
});

/** Renders `children` once the box is within 300 px of the viewport, and keeps them from then on. */
function WhenNearViewport({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setNear(true);
          observer.disconnect();
        }
      },
      { rootMargin: '300px 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={ref} className="h-full w-full">
      {near ? children : <ChartSkeleton />}
    </div>
  );
}

/** The daily chart of one metric; its summary gives an additive metric's total, a ratio's range of values. */
export function LazyTrendChart(props: TrendChartProps) {
  const metric = metricById(props.metric);
  const values = props.daily.map((d) => d[metric.id]);
  const summary = metric.additive
    ? `${metric.format(values.reduce((sum, v) => sum + v, 0))} over ${values.length} days`
    : `from ${metric.format(Math.min(...values))} to ${metric.format(Math.max(...values))} a day over ${values.length} days`;
  const unusual = new Set(props.alerts.map((a) => a.day)).size;
  const marked = unusual > 0 ? `; ${unusual} ${unusual === 1 ? 'day' : 'days'} marked as unusual` : '';
  return (
    <figure className="h-72 w-full" aria-label={`${metric.label} per day, chart: ${summary}${marked}`}>
      <WhenNearViewport>
        <TrendChart {...props} />
      </WhenNearViewport>
    </figure>
  );
}

export function LazyCountryBars({ rows }: { rows: CountryBar[] }) {
  return (
    <figure className="h-72 w-full" aria-label="Revenue of the top countries, bar chart">
      <WhenNearViewport>
        <CountryBars rows={rows} />
      </WhenNearViewport>
    </figure>
  );
}

/** The Countries page's world map in a box of its final shape; `label` names it for screen readers. */
export function LazyWorldShapes({
  label,
  ...props
}: {
  label: string;
  revenue: Record<string, number>;
  thresholds: number[];
}) {
  return (
    <div
      role="img"
      aria-label={label}
      className="mx-auto w-full max-w-3xl"
      style={{ aspectRatio: `${MAP_WIDTH} / ${MAP_HEIGHT}` }}
    >
      <WhenNearViewport>
        <WorldShapes {...props} />
      </WhenNearViewport>
    </div>
  );
}
