import { PlainTableHead } from '@/components/ui/plain-table-head';
import { monthLabel, type AccountStatement } from '@/lib/payments';
import { formatCents } from '@/lib/shared/format';

/** A statement's earnings by site, or its adjustments (each naming the month and site it corrects). */
export function StatementLines({ lines, kind }: { lines: AccountStatement['lines']; kind: 'earnings' | 'adjustment' }) {
  const shown = lines.filter((l) => l.kind === kind);
  const adjustments = kind === 'adjustment';
  return (
    <table className="stack-table w-full text-sm">
      <caption className="sr-only">{adjustments ? 'Adjustments to finalized months' : 'Earnings by site'}</caption>
      <PlainTableHead columns={adjustments ? ['Site', 'Month', 'Amount'] : ['Site', 'Amount']} numeric={['Amount']} />
      <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
        {shown.map((l) => (
          <tr key={`${l.month}${l.siteId}`} data-testid={`${kind}-line`}>
            <td className="px-4 py-3 font-medium">{l.siteName}</td>
            {adjustments && (
              <td data-label="Month" className="px-4 py-3">
                {monthLabel(l.month)}
              </td>
            )}
            <td data-label="Amount" className="px-4 py-3 text-right tabular-nums">
              {formatCents(l.amountMicros)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
