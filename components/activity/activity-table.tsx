import { Badge, type BadgeTone } from '@/components/ui/badge';
import type { AuditEventResponse } from '@/lib/activity';
import { KIND_LABELS } from '@/lib/dashboard/activity';
import type { ActivityKind } from '@/lib/activity';
import { PlainTableHead } from '@/components/ui/plain-table-head';

const ACTOR_TONES: Record<string, BadgeTone> = { user: 'blue', key: 'gray', admin: 'amber', system: 'gray' };
const ACTOR_WORDS: Record<string, string> = {
  user: 'Person',
  key: 'API key',
  admin: 'Operator',
  system: 'Command line',
};

/** An event's details as short "name: value" pairs; ids and long lists stay in the CSV. */
function detailsOf(details: Record<string, unknown>): string {
  return Object.entries(details)
    .filter(([, value]) => value !== null && value !== undefined && typeof value !== 'object')
    .map(([name, value]) => `${name}: ${String(value)}`)
    .join(' · ');
}

/** UTC, to the second, as the CSV and the API write it: one clock for every reader of the log. */
const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;

/** The activity log as rows: when, what, who (and from where), the account for operators, the details. */
export function ActivityTable({
  events,
  accountName,
}: {
  events: AuditEventResponse[];
  /** For operators: each account's name by id; absent for a publisher's own log. */
  accountName?: Map<string, string>;
}) {
  const headers = ['When', 'Event', 'Who', ...(accountName ? ['Account'] : []), 'From', 'Details'];
  return (
    <table className="stack-table w-full text-sm md:min-w-[56rem]">
      <caption className="sr-only">Activity, newest first</caption>
      <PlainTableHead columns={headers} />
      <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
        {events.map((e) => (
          <tr key={e.id} data-testid="activity-row">
            <td className="px-4 py-3 whitespace-nowrap tabular-nums">
              <time dateTime={e.at}>{when(e.at)}</time>
            </td>
            <td data-label="Event" className="px-4 py-3 font-medium">
              {KIND_LABELS[e.kind as ActivityKind] ?? e.kind}
            </td>
            <td data-label="Who" className="px-4 py-3">
              <span className="flex flex-wrap items-center gap-2">
                <Badge tone={ACTOR_TONES[e.actorKind] ?? 'gray'}>{ACTOR_WORDS[e.actorKind] ?? e.actorKind}</Badge>
                <span className="break-all">{e.actorLabel ?? '—'}</span>
              </span>
            </td>
            {accountName && (
              <td data-label="Account" className="px-4 py-3">
                {e.accountId ? (accountName.get(e.accountId) ?? e.accountId) : '—'}
              </td>
            )}
            <td data-label="From" className="px-4 py-3 font-mono text-xs">
              {e.clientAddress ?? '—'}
            </td>
            <td data-label="Details" className="px-4 py-3 text-zinc-700 dark:text-zinc-300">
              {detailsOf(e.details) || '—'}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
