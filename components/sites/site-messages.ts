import { messagesOf, type ActionResult } from '@/lib/dashboard/action-result';

/** The fields the site forms show an error beside; any other error is the form's own. */
const SHOWN = ['name', 'url', 'framework', 'publisherId', 'statusReason'];

/** A site action's refusal as an error per field (and `form` for the rest). */
export const siteErrorsOf = (result: ActionResult<string> | null): Record<string, string> =>
  result && !result.ok ? messagesOf(result.error, SHOWN) : {};

/** A site action's answer to announce: its sentence, or the first of its errors. */
export const announcementOf = (result: ActionResult<string>): string =>
  result.ok ? result.data : Object.values(siteErrorsOf(result))[0];
