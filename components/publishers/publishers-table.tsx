import { Badge, type BadgeTone } from '@/components/ui/badge';
import type { PublisherResponse } from '@/lib/accounts';
import { formatDay, formatInt } from '@/lib/shared/format';
import { PublisherRowActions } from './publisher-row-actions';
import { PlainTableHead } from '@/components/ui/plain-table-head';

const STATUS: Record<PublisherResponse['status'], { tone: BadgeTone; label: string }> = {
  invited: { tone: 'blue', label: 'Invited' },
  active: { tone: 'green', label: 'Active' },
  deactivated: { tone: 'gray', label: 'Deactivated' },
};

const day = (iso: string | null) =>
  iso ? (
    <time dateTime={iso} title={`${iso.slice(0, 16).replace('T', ' ')} UTC`}>
      {formatDay(iso.slice(0, 10))}
    </time>
  ) : (
    'Never'
  );

/** Publisher accounts as rows: who, status, how many sites, last sign-in, created, and the row's actions. */
export function PublishersTable({ publishers }: { publishers: PublisherResponse[] }) {
  return (
    <table className="stack-table w-full text-sm md:min-w-[56rem]">
      <caption className="sr-only">Publisher accounts</caption>
      <PlainTableHead
        columns={['Name', 'E-mail', 'Status', 'Sites', 'Last sign-in', 'Created']}
        numeric={['Sites']}
        actions
      />
      <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
        {publishers.map((p) => (
          <tr key={p.id}>
            <td className="px-4 py-3 font-medium">{p.name}</td>
            <td data-label="E-mail" className="px-4 py-3 break-all text-zinc-700 dark:text-zinc-300">
              {p.email}
            </td>
            <td data-label="Status" className="px-4 py-3">
              <Badge tone={STATUS[p.status].tone}>{STATUS[p.status].label}</Badge>
            </td>
            <td data-label="Sites" className="px-4 py-3 text-right tabular-nums">
              {formatInt(p.sites)}
            </td>
            <td data-label="Last sign-in" className="px-4 py-3 text-zinc-700 dark:text-zinc-300">
              {day(p.lastSignInAt)}
            </td>
            <td data-label="Created" className="px-4 py-3 text-zinc-700 dark:text-zinc-300">
              {day(p.createdAt)}
            </td>
            <td className="px-4 py-3 text-right">
              <PublisherRowActions publisher={{ id: p.id, name: p.name, email: p.email, status: p.status }} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
