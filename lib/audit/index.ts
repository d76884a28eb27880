/** The activity log: who did what, when and from where, append-only. */
export { actorOf, AUDIT_KINDS, recordEvent, recordEvents, recordEventUnlessRecent } from './record';
export type { Actor, AuditEventInput, AuditKind } from './record';
export { listAuditEvents } from './list';
export { AUDIT_EVENT_COLUMNS, AuditEventResponse, auditEventsQuery, PagedAuditEvents } from './schemas';
