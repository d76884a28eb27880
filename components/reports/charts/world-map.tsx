import { countryName } from '@/lib/shared/countries';
import { formatUsd, formatUsdCompact } from '@/lib/shared/format';
import { LazyWorldShapes } from './lazy-charts';
import { OPACITY, thresholdsOf } from './map-classes';

/**
 * Revenue by country on a world map whose map data ships with the app (world-shapes.tsx, drawn in the
 * browser once its box nears the viewport). Countries are shaded in five classes of revenue; each names its
 * figure on hover, and the table beside the map carries every exact figure for screen readers and keyboards.
 * The legend and the label are here, on the server, so they are in the page at once.
 */

export function WorldMap({ revenueByCountry }: { revenueByCountry: Map<string, number> }) {
  const thresholds = thresholdsOf([...revenueByCountry.values()]);
  const top = [...revenueByCountry]
    .sort(([, a], [, b]) => b - a)
    .slice(0, 3)
    .map(([code, revenue]) => `${countryName(code) ?? code} ${formatUsd(revenue)}`);
  const bounds = [0, ...thresholds];
  return (
    <figure className="space-y-3">
      <LazyWorldShapes
        label={`World map of revenue by country${top.length > 0 ? `; highest: ${top.join(', ')}` : ''}`}
        revenue={Object.fromEntries(revenueByCountry)}
        thresholds={thresholds}
      />
      {thresholds.length > 0 && (
        <figcaption className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-zinc-600 dark:text-zinc-400">
          <span>Revenue</span>
          {bounds.map((low, i) => (
            <span key={low} className="inline-flex items-center gap-1.5">
              <span
                aria-hidden
                className="inline-block size-3 rounded-sm bg-accent-600 dark:bg-accent-400"
                style={{ opacity: OPACITY[i] }}
              />
              {i < bounds.length - 1
                ? `${formatUsdCompact(low)} – ${formatUsdCompact(bounds[i + 1])}`
                : `${formatUsdCompact(low)} and more`}
            </span>
          ))}
        </figcaption>
      )}
    </figure>
  );
}
