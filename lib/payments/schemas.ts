/** Statements, their lines and the balance as the API answers them; money in USD, rounded nowhere. */
import { z } from '@/lib/shared/zod';
import { day, signedUsd, timestamp, usd, uuid } from '@/lib/shared/response-fields';
import { fieldsOf } from '@/lib/query/fields';
import { pagedRowsQueryOf } from '@/lib/query';
import { pagedSchema } from '@/lib/query/paging';
import { MONTH_PATTERN } from './months';

const STATEMENT_STATUSES = ['estimated', 'finalized', 'paid'] as const;
export type StatementStatus = (typeof STATEMENT_STATUSES)[number];

const monthField = z
  .string()
  .regex(MONTH_PATTERN)
  .meta({ description: 'The calendar month (UTC), YYYY-MM', example: '2026-10' });

/** A statement's figures: the fields that sort and filter the list. */
export const StatementSummary = z
  .object({
    month: monthField,
    // Text for the query grammar (it has no enum type); one of STATEMENT_STATUSES.
    status: z.string().meta({
      description: `One of ${STATEMENT_STATUSES.join(', ')}. estimated: the month is open or not closed yet, its figures still move; finalized: closed by the operator, frozen; paid: its amount due was paid`,
    }),
    openingBalance: signedUsd('What the statement before carried over'),
    earnings: signedUsd("The month's earnings, every site's"),
    adjustments: signedUsd('Changes to months already finalized, found since the statement before'),
    closingBalance: signedUsd('Opening balance + earnings + adjustments'),
    amountDue: usd('What will be paid for this statement: the closing balance when it reaches the threshold, else 0'),
    carriedOver: signedUsd('What goes on to the next statement: the closing balance when below the threshold, else 0'),
    threshold: usd('The payout threshold the statement was (or will be) closed with'),
    expectedPaymentDate: day.nullable().meta({ description: 'When the amount due is paid: the terms after the month' }),
    finalizedAt: timestamp.nullable().meta({ description: 'When the operator closed the month' }),
    paidAt: day.nullable().meta({ description: 'When the payment was made' }),
    paymentReference: z.string().nullable().meta({ description: "The payment's reference (a bank transfer's, say)" }),
  })
  .meta({ id: 'StatementSummary', description: 'One monthly statement of the account.' });
export type StatementSummary = z.infer<typeof StatementSummary>;

const StatementLine = z
  .object({
    kind: z.enum(['earnings', 'adjustment']).meta({
      description:
        "earnings: the site's earnings in the statement's month; adjustment: a later change to a finalized month",
    }),
    month: monthField.meta({ description: 'The month the amount was earned in, YYYY-MM' }),
    siteId: uuid,
    siteName: z.string().meta({ description: "The site's name when the line was written" }),
    amount: signedUsd('The amount in USD'),
  })
  .meta({ id: 'StatementLine', description: 'A line of a statement.' });

export const StatementResponse = StatementSummary.extend({
  accountId: uuid.meta({ description: 'The account (the spec’s userId)' }),
  accountName: z.string(),
  lines: z.array(StatementLine),
}).meta({ id: 'StatementResponse', description: 'A statement with its lines: earnings by site, then adjustments.' });
export type StatementResponse = z.infer<typeof StatementResponse>;

export const PagedStatements = pagedSchema(StatementSummary, 'PagedStatementResponse');

export const BalanceResponse = z
  .object({
    currency: z.literal('USD'),
    balance: signedUsd('Everything earned (the open estimate included) minus everything paid'),
    finalizedUnpaid: signedUsd('Finalized and not paid yet: amounts due plus what was carried over'),
    estimated: signedUsd("The open months' earnings and the adjustments not on a statement yet"),
    carriedOver: signedUsd('What the last finalized statement carried over, below the threshold'),
    threshold: usd('The payout threshold'),
    towardThreshold: signedUsd('Carried over plus estimated: what counts toward the next payout'),
    paidToDate: usd('Every payment so far'),
    nextPayment: z
      .object({
        month: monthField,
        amount: usd('The amount'),
        expectedOn: day,
        estimated: z.boolean().meta({ description: 'Whether it comes from a month not finalized yet' }),
      })
      .nullable()
      .meta({ description: 'The next payment expected: the oldest statement with an amount due and no payment' }),
  })
  .meta({ id: 'BalanceResponse', description: 'What the account is owed and when it will be paid.' });
export type BalanceResponse = z.infer<typeof BalanceResponse>;

const statementFields = fieldsOf(StatementSummary);
export type StatementField = (typeof statementFields)[number]['name'];
export const STATEMENT_COLUMNS = statementFields.map((f) => f.name);

export const statementsQuery = pagedRowsQueryOf(
  statementFields,
  'Case-insensitive text: matches the month, the status or the payment reference.',
  { filter: 'amountDue>0;month>=2026-01-01', filterList: { status: 'finalized,paid' } },
);

export const monthPathParams = z.object({ month: monthField });
