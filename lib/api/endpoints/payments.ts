/** Payments: the account's balance, its monthly statements, and one statement as JSON or a PDF. */
import {
  accountLedger,
  balanceOf,
  BalanceResponse,
  getStatement,
  listStatements,
  monthPathParams,
  PagedStatements,
  STATEMENT_COLUMNS,
  StatementResponse,
  statementResponseOf,
  statementsQuery,
} from '@/lib/payments';
import { FileBody } from '@/lib/http/render';
import { statementPdf } from '@/lib/http/statement-pdf';
import { JSON_TYPES, PDF_TYPE } from '@/lib/http/negotiate';
import { endpoint, PAGED_TYPES, type ApiEndpoint } from '../endpoint';

const ACCOUNT_LEVEL =
  "An account-level key is needed (a site-scoped key gets 403, as on the rows): statements are the whole account's.";

export const PAYMENT_ENDPOINTS: ApiEndpoint[] = [
  endpoint({
    method: 'GET',
    path: '/api/v1/payments/balance',
    operationId: 'getBalance',
    tag: 'Payments',
    access: 'key',
    summary: 'What the account is owed: its balance, the threshold and the next payment',
    description: `The balance is everything earned minus everything paid; what was finalized and is unpaid, what is still an estimate, and how far the carried balance and the estimate go toward the payout threshold. ${ACCOUNT_LEVEL}`,
    response: { status: 200, description: 'The balance', schema: BalanceResponse },
    errors: [403],
    run: { handler: async ({ principal }) => balanceOf(await accountLedger(principal)) },
  }),
  endpoint({
    method: 'GET',
    path: '/api/v1/payments/statements',
    operationId: 'listStatements',
    tag: 'Payments',
    access: 'key',
    summary: 'Monthly statements, newest first: estimated, finalized or paid',
    description: `One statement per calendar month (UTC) from the account's first month with revenue: estimated while the month is open or not closed yet, finalized when the operator closes it (its figures frozen; later changes come as adjustments on the next open statement), paid when the payment is recorded. Paged, sortable and filterable like the reports (e.g. \`Filter=status==paid\`). ${ACCOUNT_LEVEL}`,
    query: statementsQuery,
    response: { status: 200, description: 'A page of statements', schema: PagedStatements, mediaTypes: PAGED_TYPES },
    errors: [400, 403, 406],
    run: { csvColumns: STATEMENT_COLUMNS, handler: ({ principal, input }) => listStatements(principal, input) },
  }),
  endpoint({
    method: 'GET',
    path: '/api/v1/payments/statements/{month}',
    operationId: 'getStatement',
    tag: 'Payments',
    access: 'key',
    summary: 'One statement with its lines by site and its adjustments; as a PDF with Accept: application/pdf',
    description: `The month as YYYY-MM. JSON: the statement's figures and lines (earnings by site, then adjustments naming the month and site they correct). \`Accept: application/pdf\`: the statement as a PDF file, money to the cent. ${ACCOUNT_LEVEL}`,
    pathParams: monthPathParams,
    response: {
      status: 200,
      description: 'The statement (or its PDF)',
      schema: StatementResponse,
      mediaTypes: [...JSON_TYPES, PDF_TYPE],
    },
    errors: [400, 403, 404, 406],
    download: { filename: 'statement-<YYYY-MM>.pdf', onlyFor: PDF_TYPE },
    run: {
      offers: [...JSON_TYPES, PDF_TYPE],
      handler: async ({ principal, params, type }) => {
        const { view, statement } = await getStatement(principal, params.month);
        if (type !== PDF_TYPE) return statementResponseOf(view, statement);
        return new FileBody(await statementPdf(view, statement), `statement-${params.month}.pdf`);
      },
    },
  }),
];
