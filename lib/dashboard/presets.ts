import { addDays, MAX_RANGE_DAYS } from '@/lib/query/dates';

/**
 * The date-range presets of the filter bar, as inclusive UTC days relative to `today`; "All time" starts at
 * the account's first day of data, or as far back as a range may reach (MAX_RANGE_DAYS).
 */
export const PRESETS = [
  { id: 'today', label: 'Today' },
  { id: 'yesterday', label: 'Yesterday' },
  { id: '7d', label: 'Last 7 days' },
  { id: '30d', label: 'Last 30 days' },
  { id: '90d', label: 'Last 90 days' },
  { id: 'mtd', label: 'This month' },
  { id: 'lastmonth', label: 'Last month' },
  { id: '12m', label: 'Last 12 months' },
  { id: 'ytd', label: 'Year to date' },
  { id: 'all', label: 'All time' },
] as const;

export type PresetId = (typeof PRESETS)[number]['id'];

export function presetRange(id: PresetId, today: string, firstDay: string | null): { from: string; to: string } {
  const monthStart = `${today.slice(0, 8)}01`;
  switch (id) {
    case 'today':
      return { from: today, to: today };
    case 'yesterday':
      return { from: addDays(today, -1), to: addDays(today, -1) };
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
    case '12m': {
      // From the day after the same date a year ago (Feb 28 for Feb 29): twelve whole months up to today.
      const year = String(Number(today.slice(0, 4)) - 1).padStart(4, '0');
      const sameDay = today.endsWith('-02-29') ? `${year}-02-28` : `${year}${today.slice(4)}`;
      return { from: addDays(sameDay, 1), to: today };
    }
    case 'ytd':
      return { from: `${today.slice(0, 4)}-01-01`, to: today };
    case 'all': {
      const earliest = addDays(today, -(MAX_RANGE_DAYS - 1));
      const from = firstDay === null || firstDay > today ? today : firstDay < earliest ? earliest : firstDay;
      return { from, to: today };
    }
  }
}

/** Which preset a range is, if any ("custom" otherwise). */
export function matchPreset(from: string, to: string, today: string, firstDay: string | null): PresetId | 'custom' {
  return (
    PRESETS.find((p) => {
      const range = presetRange(p.id, today, firstDay);
      return range.from === from && range.to === to;
    })?.id ?? 'custom'
  );
}
