import { addDays } from '@/lib/query/dates';

/** The date-range presets of the filter bar, as inclusive UTC days relative to `today`. */
export const PRESETS = [
  { id: '7d', label: 'Last 7 days' },
  { id: '30d', label: 'Last 30 days' },
  { id: '90d', label: 'Last 90 days' },
  { id: 'mtd', label: 'This month' },
  { id: 'lastmonth', label: 'Last month' },
  { id: 'ytd', label: 'Year to date' },
] as const;

export type PresetId = (typeof PRESETS)[number]['id'];

export function presetRange(id: PresetId, today: string): { from: string; to: string } {
  const monthStart = `${today.slice(0, 8)}01`;
  switch (id) {
    case '7d':
      return { from: addDays(today, -6), to: today };
    case '30d':
      return { from: addDays(today, -29), to: today };
    case '90d':
      return { from: addDays(today, -89), to: today };
    case 'mtd':
      return { from: monthStart, to: today };
    case 'lastmonth': {
      const lastDay = addDays(monthStart, -1);
      return { from: `${lastDay.slice(0, 8)}01`, to: lastDay };
    }
    case 'ytd':
      return { from: `${today.slice(0, 4)}-01-01`, to: today };
  }
}

/** Which preset a range is, if any ("custom" otherwise). */
export function matchPreset(from: string, to: string, today: string): PresetId | 'custom' {
  return (
    PRESETS.find((p) => {
      const range = presetRange(p.id, today);
      return range.from === from && range.to === to;
    })?.id ?? 'custom'
  );
}
