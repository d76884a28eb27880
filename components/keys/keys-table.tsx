import { RevokeKeyButton } from '@/components/keys/revoke-key-button';
import { RotateKeyButton } from '@/components/keys/key-actions';
import { Badge } from '@/components/ui/badge';
import { formatDay } from '@/lib/shared/format';
import type { ApiKeyResponse, KeyAuthor } from '@/lib/keys';
import { PlainTableHead } from '@/components/ui/plain-table-head';

function status(key: ApiKeyResponse) {
  if (key.revokedAt) return <Badge tone="red">Revoked</Badge>;
  if (!key.isActive) return <Badge tone="gray">Expired</Badge>;
  return <Badge tone="green">Active</Badge>;
}

const day = (iso: string | null, none: string) => (iso ? formatDay(iso.slice(0, 10)) : none);

/**
 * The last day (UTC) a key works, as the create dialog asks for it ("stops working after this day"): the
 * dialog stores the start of the next day, so a key expiring at midnight shows the day before.
 */
function expiry(iso: string | null) {
  if (!iso) return 'Never';
  const at = Date.parse(iso);
  const lastDay = new Date(at % 86_400_000 === 0 ? at - 1 : at).toISOString().slice(0, 10);
  return (
    <time dateTime={iso} title={`Stops working at ${iso.slice(0, 16).replace('T', ' ')} UTC`}>
      {formatDay(lastDay)}
    </time>
  );
}

/**
 * Keys as rows: label, visible prefix, scope, dates, status, Rotate while the key works (inside KeyActions)
 * and Revoke until it is revoked; no actions in an admin's read-only view of a publisher's keys.
 */
export function KeysTable(props: {
  keys: ApiKeyResponse[];
  siteName: Map<string, string>;
  caption: string;
  readOnly?: boolean;
  /** Who made each key, by id: shown under its date, with a note when they have left the account. */
  authors?: Record<string, KeyAuthor>;
}) {
  const { keys, siteName, caption, readOnly = false, authors = {} } = props;
  const scope = (key: ApiKeyResponse) =>
    key.siteIds ? key.siteIds.map((id) => siteName.get(id) ?? id).join(', ') : 'All sites';
  return (
    <table className="stack-table w-full text-sm md:min-w-[56rem]">
      <caption className="sr-only">{caption}</caption>
      <PlainTableHead
        columns={['Label', 'Key', 'Scope', 'Created', 'Last used', 'Expires', 'Status']}
        actions={!readOnly}
      />
      <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
        {keys.map((key) => (
          <tr key={key.id} data-testid="api-key-row">
            <td className="px-4 py-3 font-medium">
              {key.label ?? <span className="text-zinc-600 dark:text-zinc-400">No label</span>}
            </td>
            <td data-label="Key" className="px-4 py-3 font-mono text-xs">
              {key.keyPrefix}…
            </td>
            <td data-label="Scope" className="px-4 py-3">
              {scope(key)}
            </td>
            <td data-label="Created" className="px-4 py-3 whitespace-nowrap">
              {day(key.createdAt, '—')}
              {authors[key.id] && (
                <span className="block text-xs text-zinc-600 dark:text-zinc-400" title={authors[key.id].email}>
                  by {authors[key.id].name}
                  {!authors[key.id].member && ' (no longer a member)'}
                </span>
              )}
            </td>
            <td data-label="Last used" className="px-4 py-3 whitespace-nowrap">
              {day(key.lastUsedAt, 'Never')}
            </td>
            <td data-label="Expires" className="px-4 py-3 whitespace-nowrap">
              {expiry(key.expiresAt)}
            </td>
            <td data-label="Status" className="px-4 py-3">
              {status(key)}
            </td>
            {!readOnly && (
              <td className="px-4 py-3 text-right">
                <div className="inline-flex gap-1 whitespace-nowrap">
                  {key.isActive && <RotateKeyButton apiKey={key} scope={scope(key)} />}
                  {!key.revokedAt && <RevokeKeyButton keyId={key.id} label={key.label} prefix={key.keyPrefix} />}
                </div>
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
