/**
 * The world map's shading, shared by the server (the legend) and the browser (the shapes): countries fall in
 * five classes of revenue by quantiles of the countries that earned, so a few large markets do not wash out
 * the rest.
 */

/** The map's drawing box; the page holds a box of this shape until the map is drawn, so nothing moves. */
export const MAP_WIDTH = 960;
export const MAP_HEIGHT = 440;

const CLASSES = 5;
export const OPACITY = [0.18, 0.35, 0.55, 0.75, 1];

/** The lower bounds of the classes above the first. */
export function thresholdsOf(values: number[]): number[] {
  const sorted = values.filter((v) => v > 0).sort((a, b) => a - b);
  if (sorted.length === 0) return [];
  const bounds = Array.from({ length: CLASSES - 1 }, (_, i) => sorted[Math.floor(((i + 1) * sorted.length) / CLASSES)]);
  return [...new Set(bounds)];
}

export const classOf = (value: number, thresholds: number[]) => thresholds.filter((t) => value >= t).length;
