import { buttonClass } from '@/components/ui/button';
import { inputClass } from '@/components/ui/field';
import { KIND_LABELS, type ActivityView } from '@/lib/dashboard/activity';

/**
 * The log's filters as a plain GET form: the URL holds the view, so a filtered log can be bookmarked and its
 * download link carries the same filters.
 */
export function ActivityFilters({
  view,
  publishers,
}: {
  view: ActivityView;
  /** For operators: the accounts to narrow to. */
  publishers?: { id: string; name: string }[];
}) {
  return (
    <form method="get" className="mb-4 flex flex-wrap items-end gap-3" aria-label="Filter activity">
      <div className="space-y-1.5">
        <label htmlFor="activity-kind" className="block text-sm font-medium">
          Event
        </label>
        <select id="activity-kind" name="kind" defaultValue={view.kind ?? ''} className={inputClass}>
          <option value="">All events</option>
          {Object.entries(KIND_LABELS).map(([kind, label]) => (
            <option key={kind} value={kind}>
              {label}
            </option>
          ))}
        </select>
      </div>
      {publishers && (
        <div className="space-y-1.5">
          <label htmlFor="activity-account" className="block text-sm font-medium">
            Account
          </label>
          <select id="activity-account" name="account" defaultValue={view.accountId ?? ''} className={inputClass}>
            <option value="">All accounts</option>
            {publishers.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </div>
      )}
      <div className="space-y-1.5">
        <label htmlFor="activity-q" className="block text-sm font-medium">
          Who or from where
        </label>
        <input
          id="activity-q"
          name="q"
          type="search"
          defaultValue={view.text ?? ''}
          placeholder="E-mail, key prefix or address"
          maxLength={100}
          className={inputClass}
        />
      </div>
      <button type="submit" className={buttonClass('secondary')}>
        Apply
      </button>
    </form>
  );
}
