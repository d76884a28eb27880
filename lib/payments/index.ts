/** Earnings statements and payments: the month-end close, the ledger's arithmetic, the publisher's reads. */
export { seedDemoPaymentHistory } from './demo-history';
export { finalizeMonth } from './finalize';
export { listStatements } from './list';
export { listPayouts } from './payouts';
export { parsePaymentsCsv, recordPayments, type PaymentEntry } from './record-payments';
export {
  accountLedger,
  balanceOf,
  getStatement,
  statementOf,
  statementResponseOf,
  summaryOf,
  type AccountStatement,
} from './statements';
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
