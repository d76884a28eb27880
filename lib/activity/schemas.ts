/** An activity event as the API answers it, and the page of them; the query grammar's fields come from it. */
import { z } from '@/lib/shared/zod';
import { timestamp, uuid } from '@/lib/shared/response-fields';
import { fieldsOf } from '@/lib/query/fields';
import { pagedRowsQueryOf } from '@/lib/query';
import { pagedSchema } from '@/lib/query/paging';
import { ACTIVITY_KINDS } from './record';

/** The fields that filter and sort: every field of the event but its free-form details. */
const AuditEventFields = z.object({
  id: z.int().min(1).meta({ description: 'Position in the log: later events have larger ids' }),
  at: timestamp,
  kind: z.string().meta({ description: `What happened: ${ACTIVITY_KINDS.join(', ')}`, example: 'key.created' }),
  actorKind: z.string().meta({
    description: 'Who acted: user (a publisher signed in), key (an API key), admin, system (the command line)',
  }),
  actorId: uuid.nullable().meta({ description: "The acting person's or key's id" }),
  actorLabel: z.string().nullable().meta({ description: "The acting person's e-mail or the key's prefix, as it was" }),
  accountId: uuid.nullable().meta({ description: 'The publisher account the event concerns' }),
  subjectId: uuid.nullable().meta({ description: 'What the event is about: a site, a key, a person' }),
  clientAddress: z.string().nullable().meta({ description: 'The client address the action came from' }),
});

export const AuditEventResponse = AuditEventFields.extend({
  details: z.record(z.string(), z.unknown()).meta({ description: 'What else the event records, by kind' }),
}).meta({ id: 'AuditEventResponse', description: 'One event of the activity log.' });
export type AuditEventResponse = z.infer<typeof AuditEventResponse>;

export const PagedActivity = pagedSchema(AuditEventResponse, 'PagedAuditEventResponse');

const auditEventFields = fieldsOf(AuditEventFields);
export type AuditEventField = keyof z.infer<typeof AuditEventFields>;
/** The CSV's columns: every field, details last as JSON text. */
export const ACTIVITY_COLUMNS = [...auditEventFields.map((f) => f.name), 'details'];

export const activityQuery = pagedRowsQueryOf(
  auditEventFields,
  "Case-insensitive text: matches the kind, the actor's e-mail or key prefix, or the client address.",
  { filter: 'at>=2026-11-01;actorKind==key', filterList: { kind: 'key.created,key.revoked' } },
);
