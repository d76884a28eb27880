/** Earnings statements and payments: the month-end close, the ledger's arithmetic, the publisher's reads. */
export { seedDemoPaymentHistory } from './demo-history';
export { closeThrough, closeMonth } from './close';
export { closingOf } from './ledger';
export { listStatements } from './list';
export { lastDayOf, monthLabel, monthName, monthOf, nextMonth, previousMonth } from './months';
export { listPayouts } from './payouts';
export { parsePaymentsCsv, recordPayments, type PaymentEntry } from './record-payments';
export {
  accountLedger,
  balanceOf,
  getStatement,
  statementOf,
  statementResponseOf,
  summaryOf,
  type AccountLedgerView,
  type AccountStatement,
} from './statements';
export { statementCsv } from './statement-csv';
export {
  BalanceResponse,
  monthPathParams,
  PagedStatements,
  STATEMENT_COLUMNS,
  StatementResponse,
  statementsQuery,
  type StatementSummary,
} from './schemas';
