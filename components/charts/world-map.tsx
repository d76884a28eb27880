import { geoEqualEarth, geoPath } from 'd3-geo';
import countryCodes from 'i18n-iso-countries';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import world from 'world-atlas/countries-110m.json';
import { countryName } from '@/lib/countries';
import { formatUsd, formatUsdCompact } from '@/lib/format';

/**
 * Revenue by country on a world map, drawn as plain SVG on the server from map data that ships with the app
 * (world-atlas: Natural Earth's 1:110m countries), so no request leaves for tiles and no map library runs in
 * the browser. Countries are shaded in five classes of revenue; each names its figure on hover, and the table
 * beside the map carries every exact figure for screen readers and keyboards.
 */

const WIDTH = 960;
const HEIGHT = 440;

interface Shape {
  code: string | null;
  d: string;
}

/** The countries' outlines, projected once per process (they never change); Antarctica earns nothing. */
const SHAPES: Shape[] = (() => {
  const topology = world as unknown as Topology<{ countries: GeometryCollection }>;
  const all = feature(topology, topology.objects.countries);
  const land = { ...all, features: all.features.filter((f) => f.id !== '010') };
  const projection = geoEqualEarth().fitSize([WIDTH, HEIGHT], land);
  const path = geoPath(projection).digits(1);
  return land.features.map((f) => ({
    code: f.id === undefined ? null : (countryCodes.numericToAlpha2(String(f.id)) ?? null),
    d: path(f) ?? '',
  }));
})();

const CLASSES = 5;

/** Class bounds by quantiles of the countries that earned, so a few large markets do not wash out the rest. */
function thresholdsOf(values: number[]): number[] {
  const sorted = values.filter((v) => v > 0).sort((a, b) => a - b);
  if (sorted.length === 0) return [];
  const bounds = Array.from({ length: CLASSES - 1 }, (_, i) => sorted[Math.floor(((i + 1) * sorted.length) / CLASSES)]);
  return [...new Set(bounds)];
}

const classOf = (value: number, thresholds: number[]) => thresholds.filter((t) => value >= t).length;
const OPACITY = [0.18, 0.35, 0.55, 0.75, 1];

export function WorldMap({ revenueByCountry }: { revenueByCountry: Map<string, number> }) {
  const thresholds = thresholdsOf([...revenueByCountry.values()]);
  const top = [...revenueByCountry]
    .sort(([, a], [, b]) => b - a)
    .slice(0, 3)
    .map(([code, revenue]) => `${countryName(code) ?? code} ${formatUsd(revenue)}`);
  const bounds = [0, ...thresholds];
  return (
    <figure className="space-y-3">
      <svg
        role="img"
        aria-label={`World map of revenue by country${top.length > 0 ? `; highest: ${top.join(', ')}` : ''}`}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="mx-auto h-auto w-full max-w-3xl"
      >
        {SHAPES.map((shape, i) => {
          const revenue = (shape.code && revenueByCountry.get(shape.code)) || 0;
          const name = (shape.code && countryName(shape.code)) ?? 'Unknown';
          return (
            <path
              key={shape.code ?? `unnamed-${i}`}
              d={shape.d}
              data-country={shape.code ?? undefined}
              className={
                revenue > 0
                  ? 'fill-accent-600 stroke-white dark:fill-accent-400 dark:stroke-zinc-900'
                  : 'fill-zinc-200 stroke-white dark:fill-zinc-800 dark:stroke-zinc-900'
              }
              fillOpacity={revenue > 0 ? OPACITY[classOf(revenue, thresholds)] : 1}
              strokeWidth={0.5}
            >
              <title>{`${name}: ${revenue > 0 ? formatUsd(revenue) : 'no revenue'}`}</title>
            </path>
          );
        })}
      </svg>
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
