/**
 * A statement as CSV, for a spreadsheet: its lines (earnings by site, then adjustments naming their month) and,
 * after a blank line, its totals; dollars and cents rounded once from micro-dollars, totals the statement's own.
 */
import { csvCell } from '@/lib/shared/csv';
import { dollars } from '@/lib/shared/money';
import { monthName } from './months';
import type { AccountLedgerView, AccountStatement } from './statements';

const line = (cells: (string | number | null)[]) => cells.map(csvCell).join(',');

export function statementCsv(view: AccountLedgerView, s: AccountStatement): string {
  const rows = [
    line(['Kind', 'Month', 'Site', 'Site ID', 'Amount (USD)']),
    ...s.lines.map((l) => line([l.kind, monthName(l.month), l.siteName, l.siteId, dollars(l.amountMicros)])),
    '',
    line(['Account', view.accountName, '', view.accountId, '']),
    line(['Statement', monthName(s.month), s.status, '', '']),
    line(['Opening balance', '', '', '', dollars(s.openingMicros)]),
    line(['Earnings', '', '', '', dollars(s.earningsMicros)]),
    line(['Adjustments', '', '', '', dollars(s.adjustmentsMicros)]),
    line(['Closing balance', '', '', '', dollars(s.closingMicros)]),
    line(['Amount due', s.dueOn ?? '', '', '', dollars(s.amountDueMicros)]),
    line(['Carried over', '', '', '', dollars(s.carriedMicros)]),
  ];
  return `${rows.join('\n')}\n`;
}
