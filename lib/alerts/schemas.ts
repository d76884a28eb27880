/** An alert as the API answers it, and the page of them; the query grammar's fields come from it. */
import { z } from '@/lib/shared/zod';
import { day, timestamp, uuid } from '@/lib/shared/response-fields';
import { fieldsOf } from '@/lib/query/fields';
import { pagedRowsQueryOf } from '@/lib/query';
import { pagedSchema } from '@/lib/query/paging';
import { ALERT_KINDS } from '@/lib/shared/events';

const ALERT_STATES = ['open', 'acknowledged'] as const;

/** The fields that filter and sort: every field of the alert but its words and details. */
const AlertFields = z.object({
  id: uuid,
  kind: z.enum(ALERT_KINDS).meta({ description: 'What the alert is about', example: 'revenue.drop' }),
  state: z.enum(ALERT_STATES).meta({ description: 'open until someone of the account acknowledges it' }),
  day: day.nullable().meta({
    description:
      'The day it is about: the revenue day, the first day without data, the day a key expires or a payment was paid',
  }),
  siteId: uuid.nullable().meta({ description: 'The site it is about; null for the account as a whole' }),
  subjectId: uuid.nullable().meta({ description: 'The statement, payment or API key it is about' }),
  createdAt: timestamp,
  acknowledgedAt: timestamp.nullable().meta({ description: 'When it was acknowledged' }),
});

export const AlertResponse = AlertFields.extend({
  message: z.string().meta({
    description: 'What happened, in words',
    example:
      'Puzzle Quest earned $40.00 on Tue, Nov 24, 2026, 60.0% below the usual $100.00 (median of the 8 Tuesdays before); most of the difference: United States (-$45.00), …',
  }),
  details: z.record(z.string(), z.unknown()).meta({
    description:
      'By kind. Revenue alerts: expected, actual, change (a ratio), bandLow, bandHigh (USD) and drivers: up to three sites or countries with expected, actual and difference.',
  }),
}).meta({ id: 'AlertResponse', description: 'Something the portal tells the account first.' });
export type AlertResponse = z.infer<typeof AlertResponse>;

export const PagedAlerts = pagedSchema(AlertResponse, 'PagedAlertResponse');

const alertFields = fieldsOf(AlertFields);
export type AlertField = keyof z.infer<typeof AlertFields>;
/** The CSV's columns: every field, the message, details last as JSON text. */
export const ALERT_COLUMNS = [...alertFields.map((f) => f.name), 'message', 'details'];

export const alertsQuery = pagedRowsQueryOf(alertFields, 'Case-insensitive text: matches the kind or the message.', {
  filter: 'state==open;day>=2026-11-01',
  filterList: { kind: 'revenue.drop,revenue.spike' },
});
