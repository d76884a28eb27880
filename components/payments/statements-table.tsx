import Link from 'next/link';
import { PlainTableHead } from '@/components/ui/plain-table-head';
import { monthLabel, type AccountStatement } from '@/lib/payments';
import { formatCents, formatDay } from '@/lib/shared/format';
import { StatementStatus } from './statement-status';

/** The account's statements, newest first; each month links to its detail, each row offers its files. */
export function StatementsTable({
  statements,
  hrefOf,
}: {
  statements: AccountStatement[];
  hrefOf: (path: string) => string;
}) {
  return (
    <table className="stack-table w-full text-sm md:min-w-[56rem]">
      <caption className="sr-only">Statements, newest first</caption>
      <PlainTableHead
        columns={['Month', 'Status', 'Earnings', 'Adjustments', 'Closing balance', 'Amount due', 'Payment']}
        numeric={['Earnings', 'Adjustments', 'Closing balance', 'Amount due']}
        actions
      />
      <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
        {statements.map((s) => {
          const month = s.month.slice(0, 7);
          return (
            <tr key={s.month} data-testid="statement-row">
              <td className="px-4 py-3 font-medium">
                <Link
                  href={hrefOf(`/payments/${month}`)}
                  className="text-accent-700 hover:underline dark:text-accent-300"
                >
                  {monthLabel(s.month)}
                </Link>
              </td>
              <td data-label="Status" className="px-4 py-3">
                <StatementStatus status={s.status} />
              </td>
              <td data-label="Earnings" className="px-4 py-3 text-right tabular-nums">
                {formatCents(s.earningsMicros)}
              </td>
              <td data-label="Adjustments" className="px-4 py-3 text-right tabular-nums">
                {s.adjustmentsMicros === 0 ? '—' : formatCents(s.adjustmentsMicros)}
              </td>
              <td data-label="Closing balance" className="px-4 py-3 text-right tabular-nums">
                {formatCents(s.closingMicros)}
              </td>
              <td data-label="Amount due" className="px-4 py-3 text-right tabular-nums">
                {s.amountDueMicros > 0 ? formatCents(s.amountDueMicros) : 'Carried over'}
              </td>
              <td data-label="Payment" className="px-4 py-3 whitespace-nowrap">
                {s.paidOn
                  ? `Paid ${formatDay(s.paidOn)}`
                  : s.dueOn
                    ? `${s.status === 'estimated' ? 'About' : 'Expected'} ${formatDay(s.dueOn)}`
                    : '—'}
              </td>
              <td className="px-4 py-3 text-right whitespace-nowrap">
                <a
                  href={hrefOf(`/payments/${month}/statement.pdf`)}
                  className="text-accent-700 hover:underline dark:text-accent-300"
                  download
                >
                  PDF<span className="sr-only"> of {monthLabel(s.month)}</span>
                </a>
                {' · '}
                <a
                  href={hrefOf(`/payments/${month}/statement.csv`)}
                  className="text-accent-700 hover:underline dark:text-accent-300"
                  download
                >
                  CSV<span className="sr-only"> of {monthLabel(s.month)}</span>
                </a>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
