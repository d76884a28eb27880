'use client';

import * as Popover from '@radix-ui/react-popover';
import { ChevronDown } from 'lucide-react';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useId, useOptimistic, useTransition } from 'react';
import { buttonClass } from '@/components/ui/button';
import { inputClass } from '@/components/ui/field';
import { matchPreset, PRESETS, presetRange, type PresetId } from '@/lib/dashboard/presets';
import { withChanges } from '@/lib/dashboard/url';
import type { ReportRange } from '@/lib/services/reports';

export interface SiteOption {
  siteId: string;
  name: string | null;
}

/**
 * Date range (presets or custom days) and a site multi-select. The state is the URL: every change replaces
 * `from`, `to` and `sites` and the server renders the page again, so a view can be shared and reloaded.
 */
export function FilterBar({ range, allSites, today }: { range: ReportRange; allSites: SiteOption[]; today: string }) {
  const { fromDate: from, toDate: to, siteIds: sites } = range;
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const [pending, startTransition] = useTransition();
  // What the user just chose, shown at once while the server renders it (otherwise the controls would snap
  // back to the old values until then, and a second click would start from the old selection).
  const [shown, setShown] = useOptimistic({ from, to, sites });
  const id = useId();
  const preset = matchPreset(shown.from, shown.to, today);

  const navigate = (changes: { from?: string; to?: string; sites?: string[] | null }) => {
    const next = { ...shown, ...changes };
    // A new filter starts again on the first page; "all sites" is no parameter at all.
    const params = withChanges(searchParams.toString(), {
      from: next.from,
      to: next.to,
      sites: next.sites && next.sites.length > 0 && next.sites.length < allSites.length ? next.sites.join(',') : null,
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
            if (e.target.value !== 'custom') navigate(presetRange(e.target.value as PresetId, today));
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
      <div className="space-y-1">
        <label htmlFor={`${id}-from`} className="block text-xs font-medium text-zinc-700 dark:text-zinc-300">
          From
        </label>
        <input
          id={`${id}-from`}
          type="date"
          className={inputClass}
          value={shown.from}
          max={shown.to}
          onChange={(e) => e.target.value && navigate({ from: e.target.value })}
        />
      </div>
      <div className="space-y-1">
        <label htmlFor={`${id}-to`} className="block text-xs font-medium text-zinc-700 dark:text-zinc-300">
          To
        </label>
        <input
          id={`${id}-to`}
          type="date"
          className={inputClass}
          value={shown.to}
          min={shown.from}
          max={today}
          onChange={(e) => e.target.value && navigate({ to: e.target.value })}
        />
      </div>
      <Popover.Root>
        <Popover.Trigger className={buttonClass('secondary', 'min-w-40 justify-between')}>
          <span>
            <span className="sr-only">Sites: </span>
            {siteLabel}
          </span>
          <ChevronDown aria-hidden className="size-4" />
        </Popover.Trigger>
        <Popover.Portal>
          <Popover.Content
            align="start"
            sideOffset={6}
            className="z-50 w-72 rounded-md border border-zinc-200 bg-white p-2 shadow-lg dark:border-zinc-700 dark:bg-zinc-900"
          >
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
          </Popover.Content>
        </Popover.Portal>
      </Popover.Root>
      <span aria-live="polite" className="text-xs text-zinc-600 dark:text-zinc-400">
        {pending ? 'Updating…' : ''}
      </span>
    </div>
  );
}
