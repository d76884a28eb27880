import { geoEqualEarth, geoPath } from 'd3-geo';
import countryCodes from 'i18n-iso-countries';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import world from 'world-atlas/countries-110m.json';
import { countryName } from '@/lib/shared/countries';
import { formatUsd } from '@/lib/shared/format';
import { classOf, MAP_HEIGHT, MAP_WIDTH, OPACITY } from './map-classes';

interface Shape {
  code: string | null;
  d: string;
}

/**
 * The countries' outlines, projected once in the browser from map data bundled with the app (world-atlas:
 * Natural Earth's 1:110m countries), loaded late like the overview's charts (lazy-charts.tsx): no tile request
 * leaves, and the page's HTML does not carry the paths twice (markup and server-component payload, 280 KB).
 * Antarctica earns nothing.
 */
const SHAPES: Shape[] = (() => {
  const topology = world as unknown as Topology<{ countries: GeometryCollection }>;
  const all = feature(topology, topology.objects.countries);
  const land = { ...all, features: all.features.filter((f) => f.id !== '010') };
  const projection = geoEqualEarth().fitSize([MAP_WIDTH, MAP_HEIGHT], land);
  const path = geoPath(projection).digits(1);
  return land.features.map((f) => ({
    code: f.id === undefined ? null : (countryCodes.numericToAlpha2(String(f.id)) ?? null),
    d: path(f) ?? '',
  }));
})();

/** Each country shaded by its class of revenue, naming its figure on hover. */
export function WorldShapes({ revenue, thresholds }: { revenue: Record<string, number>; thresholds: number[] }) {
  return (
    <svg aria-hidden viewBox={`0 0 ${MAP_WIDTH} ${MAP_HEIGHT}`} className="h-full w-full">
      {SHAPES.map((shape, i) => {
        const earned = (shape.code && revenue[shape.code]) || 0;
        const name = (shape.code && countryName(shape.code)) ?? 'Unknown';
        return (
          <path
            key={shape.code ?? `unnamed-${i}`}
            d={shape.d}
            data-country={shape.code ?? undefined}
            className={
              earned > 0
                ? 'fill-accent-600 stroke-white dark:fill-accent-400 dark:stroke-zinc-900'
                : 'fill-zinc-200 stroke-white dark:fill-zinc-800 dark:stroke-zinc-900'
            }
            fillOpacity={earned > 0 ? OPACITY[classOf(earned, thresholds)] : 1}
            strokeWidth={0.5}
          >
            <title>{`${name}: ${earned > 0 ? formatUsd(earned) : 'no revenue'}`}</title>
          </path>
        );
      })}
    </svg>
  );
}
