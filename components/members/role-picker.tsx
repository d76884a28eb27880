'use client';

import { inputClass } from '@/components/ui/field';
import { type MemberRole, ROLE_LABELS } from '@/lib/access/browser';

/**
 * A member's role; with `sites`, a Viewer may also be limited to some of the account's sites (none ticked:
 * every site). Each change is handed on at once.
 */
export function RolePicker({
  label,
  roles,
  role,
  siteIds,
  sites,
  onChange,
  disabled,
}: {
  label: string;
  roles: MemberRole[];
  role: MemberRole;
  siteIds: string[] | null;
  /** The account's sites, to limit a Viewer to; leave out to choose the role alone. */
  sites?: { id: string; name: string }[];
  onChange: (role: MemberRole, siteIds: string[]) => void;
  disabled?: boolean;
}) {
  const chosen = siteIds ?? [];
  // A role this person may not give (an Owner, to an Admin) is shown, not offered.
  const options = roles.includes(role) ? roles : [role, ...roles];
  return (
    <div className="space-y-2">
      <select
        aria-label={label}
        value={role}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value as MemberRole, chosen)}
        className={`${inputClass} w-auto`}
      >
        {options.map((r) => (
          <option key={r} value={r} disabled={!roles.includes(r)}>
            {ROLE_LABELS[r]}
          </option>
        ))}
      </select>
      {sites && role === 'viewer' && sites.length > 0 && (
        <fieldset className="space-y-1">
          <legend className="text-xs text-zinc-600 dark:text-zinc-400">
            Only these sites (none ticked: every site)
          </legend>
          {sites.map((site) => (
            <label key={site.id} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={chosen.includes(site.id)}
                disabled={disabled}
                onChange={(event) =>
                  onChange(role, event.target.checked ? [...chosen, site.id] : chosen.filter((id) => id !== site.id))
                }
              />
              {site.name}
            </label>
          ))}
        </fieldset>
      )}
    </div>
  );
}
