/** The activity log: who did what, when and from where, append-only. */
export { actorOf, AUDIT_KINDS, recordEvent } from './record';
export type { Actor, AuditEventInput, AuditKind } from './record';
