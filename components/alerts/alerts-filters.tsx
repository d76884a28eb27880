import { buttonClass } from '@/components/ui/button';
import { inputClass } from '@/components/ui/field';
import type { AlertKind } from '@/lib/alerts';
import { ALERT_KIND_LABELS, type AlertsView } from '@/lib/dashboard/alerts';

/** Open or all, and which kind, as a plain GET form: the URL holds the view. */
export function AlertsFilters({ view, kinds }: { view: AlertsView; kinds: AlertKind[] }) {
  return (
    <form method="get" className="mb-4 flex flex-wrap items-end gap-3" aria-label="Filter alerts">
      <div className="space-y-1.5">
        <label htmlFor="alerts-show" className="block text-sm font-medium">
          Show
        </label>
        <select id="alerts-show" name="show" defaultValue={view.show} className={inputClass}>
          <option value="open">Open alerts</option>
          <option value="all">All alerts</option>
        </select>
      </div>
      <div className="space-y-1.5">
        <label htmlFor="alerts-kind" className="block text-sm font-medium">
          Kind
        </label>
        <select id="alerts-kind" name="kind" defaultValue={view.kind ?? ''} className={inputClass}>
          <option value="">Every kind</option>
          {kinds.map((kind) => (
            <option key={kind} value={kind}>
              {ALERT_KIND_LABELS[kind]}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className={buttonClass('secondary')}>
        Apply
      </button>
    </form>
  );
}
