import type { ActionError, ActionResult } from '@/lib/dashboard/action-result';

/** What a refusal says, on the field it is about when it names one ("email: …"). */
export function refusalOf(error: ActionError): { field?: string; message: string } {
  const first = error.errors?.[0];
  if (first) return { field: first.parameter, message: first.detail };
  return { field: /^(\w+): /.exec(error.detail)?.[1], message: error.detail.replace(/^\w+: /, '') };
}

/** A member action's answer to announce: its sentence, or the refusal's. */
export const announcementOf = (result: ActionResult<string>) =>
  result.ok ? { ok: true, message: result.data } : { ok: false, message: refusalOf(result.error).message };
