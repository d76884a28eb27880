/** E-mail: an outbox written in the action's transaction, sent over SMTP by a sender with retries. */
export { queueMail } from './outbox';
export { renderMail } from './layout';
export { kickSender, PERMANENT_FAILURE_ATTEMPTS, sendDueMail, startMailSender } from './sender';
export { listOutbox } from './listing';
export type { OutboxEntry } from './listing';
