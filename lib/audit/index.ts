/** The activity log: who did what, when and from where, append-only. */
export { actorOf, AUDIT_KINDS, recordEvent, recordEventUnlessRecent } from './record';
export type { Actor, AuditKind } from './record';
export { listAuditEvents } from './list';
export { AUDIT_EVENT_COLUMNS, AuditEventResponse, auditEventsQuery, PagedAuditEvents } from './schemas';
