/** Earnings statements and payments: the month-end close, the ledger's arithmetic, the publisher's reads. */
export { seedDemoPaymentHistory } from './demo-history';
export { finalizeMonth, type FinalizeSummary } from './finalize';
export { listStatements } from './list';
export { listPayouts, type UnpaidStatement } from './payouts';
export { parsePaymentsCsv, recordPayments, type PaymentEntry, type RecordedPayments } from './record-payments';
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
export { monthLabel, monthName } from './months';
export { statementCsv } from './statement-csv';
export { statementPdf } from './statement-pdf';
export {
  BalanceResponse,
  monthPathParams,
  PagedStatements,
  STATEMENT_COLUMNS,
  StatementResponse,
  statementsQuery,
  type StatementSummary,
} from './schemas';
