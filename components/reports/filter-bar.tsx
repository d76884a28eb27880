'use client';

import * as Popover from '@radix-ui/react-popover';
import { ChevronDown, X } from 'lucide-react';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useId, useOptimistic, useState, useTransition } from 'react';
import { buttonClass } from '@/components/ui/button';
import { PopoverPanel } from '@/components/ui/popover';
import { inputClass } from '@/components/ui/field';
import { matchPreset, PRESETS, presetRange, type PresetId } from '@/lib/dashboard/presets';
import { COMPARE_MODES, type CompareMode } from '@/lib/dashboard/comparison';
import { withChanges } from '@/lib/dashboard/url';
import { countryName } from '@/lib/shared/countries';
import { daysBetweenInclusive, isDay, MAX_RANGE_DAYS } from '@/lib/query/dates';
import type { ReportRange } from '@/lib/reports';

export interface SiteOption {
  siteId: string;
  name: string | null;
}

/**
 * Date range (presets or custom days), a site multi-select, and the country the dashboard is narrowed to (a
 * removable chip). The state is the URL: every change replaces `from`, `to`, `sites` or `country` and the
 * server renders the page again, so a view can be shared and reloaded.
 */
export function FilterBar({
  range,
  allSites,
  today,
  firstDay,
  compare,
}: {
  range: ReportRange;
  allSites: SiteOption[];
  today: string;
  /** The account's first day of data, where "All time" starts. */
  firstDay: string | null;
  /** What the figures are compared with; pages without comparisons leave it out. */
  compare?: CompareMode;
}) {
  const { fromDate: from, toDate: to, siteIds: sites } = range;
  const country = range.country ?? null;
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const [pending, startTransition] = useTransition();
  // What the user just chose, shown at once while the server renders it (otherwise the controls would snap
  // back to the old values until then, and a second click would start from the old selection).
  const [shown, setShown] = useOptimistic({ from, to, sites, country });
  const id = useId();
  const preset = matchPreset(shown.from, shown.to, today, firstDay);

  const navigate = (changes: { from?: string; to?: string; sites?: string[] | null; country?: null }) => {
    const next = { ...shown, ...changes };
    // A new filter starts again on the first page; "all sites" is no parameter at all.
    const params = withChanges(searchParams.toString(), {
      from: next.from,
      to: next.to,
      sites: next.sites && next.sites.length > 0 && next.sites.length < allSites.length ? next.sites.join(',') : null,
      country: next.country,
      page: null,
    });
    startTransition(() => {
      setShown(next);
      router.push(`${pathname}?${params}`, { scroll: false });
    });
  };

  const selected = new Set(shown.sites ?? allSites.map((s) => s.siteId));
  const allSelected = selected.size === allSites.length;
  const toggleSite = (siteId: string) => {
    const next = new Set(selected);
    if (next.has(siteId)) next.delete(siteId);
    else next.add(siteId);
    const all = next.size === allSites.length || next.size === 0;
    navigate({ sites: all ? null : allSites.filter((s) => next.has(s.siteId)).map((s) => s.siteId) });
  };
  const siteLabel = allSelected
    ? 'All sites'
    : selected.size === 1
      ? (allSites.find((s) => selected.has(s.siteId))?.name ?? '1 site')
      : `${selected.size} sites`;

  return (
    <div className="flex flex-wrap items-end gap-3" aria-busy={pending}>
      <div className="space-y-1">
        <label htmlFor={`${id}-range`} className="block text-xs font-medium text-zinc-700 dark:text-zinc-300">
          Date range
        </label>
        <select
          id={`${id}-range`}
          className={inputClass}
          value={preset}
          onChange={(e) => {
            if (e.target.value !== 'custom') navigate(presetRange(e.target.value as PresetId, today, firstDay));
          }}
        >
          {PRESETS.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
          <option value="custom">Custom</option>
        </select>
      </div>
      <DayInput
        key={`from-${shown.from}`}
        label="From"
        value={shown.from}
        check={(day) => (day > shown.to ? 'Must be on or before To' : spanProblem(day, shown.to))}
        max={shown.to}
        onCommit={(from) => navigate({ from })}
      />
      <DayInput
        key={`to-${shown.to}`}
        label="To"
        value={shown.to}
        check={(day) =>
          day < shown.from
            ? 'Must be on or after From'
            : day > today
              ? 'Cannot be after today'
              : spanProblem(shown.from, day)
        }
        min={shown.from}
        max={today}
        onCommit={(to) => navigate({ to })}
      />
      <Popover.Root>
        <Popover.Trigger className={buttonClass('secondary', 'min-w-40 justify-between')}>
          <span>
            <span className="sr-only">Sites: </span>
            {siteLabel}
          </span>
          <ChevronDown aria-hidden className="size-4" />
        </Popover.Trigger>
        <PopoverPanel className="w-72 p-2">
          <fieldset>
            <legend className="px-2 py-1 text-xs font-medium text-zinc-600 dark:text-zinc-400">Sites</legend>
            {allSites.map((site) => {
              const name = site.name ?? site.siteId;
              return (
                <div
                  key={site.siteId}
                  className="flex items-center gap-1 rounded hover:bg-zinc-100 dark:hover:bg-zinc-800"
                >
                  <label className="flex min-w-0 flex-1 cursor-pointer items-center gap-2 px-2 py-1.5 text-sm">
                    <input
                      type="checkbox"
                      className="size-4 shrink-0 accent-accent-600"
                      checked={selected.has(site.siteId)}
                      onChange={() => toggleSite(site.siteId)}
                    />
                    <span className="truncate">{name}</span>
                  </label>
                  {!(selected.size === 1 && selected.has(site.siteId)) && (
                    <button
                      type="button"
                      className="shrink-0 rounded px-2 py-1 text-xs font-medium text-accent-700 hover:underline dark:text-accent-300"
                      onClick={() => navigate({ sites: [site.siteId] })}
                    >
                      Only<span className="sr-only"> {name}</span>
                    </button>
                  )}
                </div>
              );
            })}
          </fieldset>
          {!allSelected && (
            <button
              type="button"
              className={buttonClass('ghost', 'mt-1 w-full')}
              onClick={() => navigate({ sites: null })}
            >
              Select all sites
            </button>
          )}
        </PopoverPanel>
      </Popover.Root>
      {compare && (
        <div className="space-y-1">
          <label htmlFor={`${id}-compare`} className="block text-xs font-medium text-zinc-700 dark:text-zinc-300">
            Compare with
          </label>
          <select
            id={`${id}-compare`}
            className={inputClass}
            value={compare}
            onChange={(e) => {
              const params = withChanges(searchParams.toString(), {
                compare: e.target.value === 'previous' ? null : e.target.value,
              });
              startTransition(() => router.push(`${pathname}?${params}`, { scroll: false }));
            }}
          >
            {COMPARE_MODES.map((m) => (
              <option key={m.id} value={m.id}>
                {m.label}
              </option>
            ))}
          </select>
        </div>
      )}
      {shown.country && (
        <span className="inline-flex h-9 items-center gap-1 rounded-full border border-accent-300 bg-accent-50 pr-1 pl-3 text-sm text-accent-700 dark:border-accent-700 dark:bg-zinc-900 dark:text-accent-300">
          <span>
            Country: <span className="font-medium">{countryName(shown.country) ?? shown.country}</span>
          </span>
          <button
            type="button"
            className="rounded-full p-1 hover:bg-accent-100 dark:hover:bg-zinc-800"
            aria-label={`Remove the country filter (${countryName(shown.country) ?? shown.country})`}
            onClick={() => navigate({ country: null })}
          >
            <X aria-hidden className="size-3.5" />
          </button>
        </span>
      )}
      <span aria-live="polite" className="text-xs text-zinc-600 dark:text-zinc-400">
        {pending ? 'Updating…' : ''}
      </span>
    </div>
  );
}

const spanProblem = (from: string, to: string) =>
  daysBetweenInclusive(from, to) > MAX_RANGE_DAYS ? `At most ${MAX_RANGE_DAYS} days` : null;

/**
 * A day field that changes the page only when the user is done: on Enter or leaving the field, and only
 * with a whole, valid day (typing a year goes through "0002", "0020"…, which must not navigate). A bad
 * day is explained beside the field, which keeps what was typed.
 */
function DayInput(props: {
  label: string;
  value: string;
  min?: string;
  max?: string;
  check: (day: string) => string | null;
  onCommit: (day: string) => void;
}) {
  const { label, value, min, max, check, onCommit } = props;
  const id = useId();
  const [draft, setDraft] = useState(value);
  // Said once the user tries to use the day, not at every keystroke on the way to it.
  const [tried, setTried] = useState(false);
  const problem = !isDay(draft) ? 'Enter a whole date' : draft < '2000-01-01' ? 'Must be 2000 or later' : check(draft);
  const shownProblem = tried ? problem : null;
  const commit = () => {
    setTried(true);
    if (!problem && draft !== value) onCommit(draft);
  };
  return (
    <div className="relative space-y-1">
      <label htmlFor={id} className="block text-xs font-medium text-zinc-700 dark:text-zinc-300">
        {label}
      </label>
      <input
        id={id}
        type="date"
        className={inputClass}
        value={draft}
        min={min}
        max={max}
        aria-invalid={shownProblem ? true : undefined}
        aria-describedby={shownProblem ? `${id}-problem` : undefined}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
          if (e.key === 'Escape') {
            setDraft(value);
            setTried(false);
          }
        }}
      />
      {shownProblem && (
        <p
          id={`${id}-problem`}
          role="alert"
          className="absolute text-xs whitespace-nowrap text-red-700 dark:text-red-400"
        >
          {shownProblem}
        </p>
      )}
    </div>
  );
}
