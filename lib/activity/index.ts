/** The activity log: who did what, when and from where, append-only. */
export { actorOf, ACTIVITY_KINDS, recordEvent, recordEvents, recordEventUnlessRecent } from './record';
export type { Actor, ActivityInput, ActivityKind } from './record';
export { listActivity } from './list';
export { ACTIVITY_COLUMNS, AuditEventResponse, activityQuery, PagedActivity } from './schemas';
