/** Earnings statements and payments: the month-end close, the ledger's arithmetic, the publisher's reads. */
export { finalizeMonth, type FinalizeSummary } from './finalize';
export { listStatements } from './list';
export { parsePaymentsCsv, recordPayments, type PaymentEntry, type RecordedPayments } from './record-payments';
export {
  accountLedger,
  balanceOf,
  statementOf,
  statementResponseOf,
  summaryOf,
  type AccountLedgerView,
  type AccountStatement,
} from './statements';
export { monthLabel, monthName } from './months';
export {
  BalanceResponse,
  monthPathParams,
  PagedStatements,
  STATEMENT_COLUMNS,
  StatementResponse,
  statementsQuery,
  type StatementSummary,
} from './schemas';
