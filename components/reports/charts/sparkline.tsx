import { formatUsd } from '@/lib/shared/format';

/**
 * A small line of a series (a site's revenue over the range), drawn as plain SVG on the server: no chart
 * library for a table of up to a hundred of them. Its label says what it shows in words.
 */
export function Sparkline({ values, label }: { values: number[]; label: string }) {
  const width = 96;
  const height = 28;
  const max = Math.max(...values, 0);
  const step = values.length > 1 ? width / (values.length - 1) : 0;
  const points = values
    .map((v, i) => `${(i * step).toFixed(1)},${(height - 2 - (max > 0 ? (v / max) * (height - 4) : 0)).toFixed(1)}`)
    .join(' ');
  const description =
    values.length > 0 ? `${label}: from ${formatUsd(values[0])} to ${formatUsd(values.at(-1)!)}` : label;
  return (
    <svg
      role="img"
      aria-label={description}
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      className="inline-block text-accent-600 dark:text-accent-400"
    >
      <polyline points={points} fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round" />
    </svg>
  );
}
