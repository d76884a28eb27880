'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import {
  addSite,
  addSiteInput,
  createSite,
  createSiteInput,
  deleteSite,
  editOwnSite,
  updateSite,
  updateSiteInput,
} from '@/lib/sites';
import { isOperator, type Principal } from '@/lib/access';
import { actingPrincipal, actionClientAddress } from '@/lib/dashboard/session';
import { AppError } from '@/lib/shared/errors';
import { fieldErrorsOf, topField } from '@/lib/shared/zod-issues';

/** What a site form gets back: a message to announce, or an error per field (and `form` for the rest). */
export type SiteActionResult = { ok: true; message: string } | { ok: false; errors: Record<string, string> };

const MALFORMED = 'The request was malformed; reload the page and try again.';

/** The signed-in user's principal, with the client address for the activity log. */
/** The principal in the account the page names (`account`, its `?as=`); for the review queue, the admin's own. */
async function acting(account?: unknown): Promise<Principal> {
  return { ...(await actingPrincipal(account)), clientAddress: await actionClientAddress() };
}

/** The fields the forms show an error beside; any other error is the form's own. */
const SHOWN = new Set(['name', 'url', 'framework', 'publisherId', 'statusReason']);

function byField(list: { parameter: string; detail: string }[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const e of list) {
    const field = topField(e.parameter);
    errors[SHOWN.has(field) ? field : 'form'] ??= SHOWN.has(field) ? e.detail : `${e.parameter}: ${e.detail}`;
  }
  return errors;
}

function refused(err: unknown): SiteActionResult {
  if (!(err instanceof AppError)) throw err;
  const errors = byField(err.errors ?? []);
  if (Object.keys(errors).length === 0) errors.form = err.detail;
  return { ok: false, errors };
}

/** Parses with the API's own schema, so both doors accept and refuse the same values. */
function parsed<T>(schema: z.ZodType<T>, value: unknown): { data: T } | SiteActionResult {
  const result = schema.safeParse(value);
  if (result.success) return { data: result.data };
  return { ok: false, errors: byField(fieldErrorsOf(result.error, 'form')) };
}

const done = (message: string): SiteActionResult => {
  revalidatePath('/sites');
  revalidatePath('/admin/sites');
  return { ok: true, message };
};

const siteFields = z.object({ name: z.string(), url: z.string(), framework: z.string() });
export type SiteFields = z.infer<typeof siteFields>;

/** "Add site": a publisher's new site, pending; an admin's (with `publisherId`) for that publisher. */
export async function addSiteAction(
  account: string | null,
  fields: SiteFields & { publisherId?: string },
): Promise<SiteActionResult> {
  const sent = siteFields.safeParse(fields);
  if (!sent.success) return { ok: false, errors: { form: MALFORMED } };
  try {
    const principal = await acting(account);
    // An operator adds a site for a publisher; anyone else one of their own account's (each service checks).
    if (isOperator(principal)) {
      const input = parsed(createSiteInput, { ...sent.data, publisherId: fields.publisherId });
      if (!('data' in input)) return input;
      const site = await createSite(principal, input.data);
      return done(`${site.name} was added for review.`);
    }
    const input = parsed(addSiteInput, sent.data);
    if (!('data' in input)) return input;
    const site = await addSite(principal, input.data);
    return done(`${site.name} was added. It is pending until an admin reviews it.`);
  } catch (err) {
    return refused(err);
  }
}

/** "Edit": an admin's edit of any site, a publisher's of its own pending one. */
export async function editSiteAction(
  account: string | null,
  siteId: string,
  fields: SiteFields,
): Promise<SiteActionResult> {
  const sent = siteFields.safeParse(fields);
  if (typeof siteId !== 'string' || !sent.success) return { ok: false, errors: { form: MALFORMED } };
  const input = parsed(addSiteInput, sent.data);
  if (!('data' in input)) return input;
  try {
    const principal = await acting(account);
    const site = isOperator(principal)
      ? await updateSite(principal, siteId, input.data)
      : await editOwnSite(principal, siteId, input.data);
    return done(`${site.name} was saved.`);
  } catch (err) {
    return refused(err);
  }
}

const review = z.object({ status: z.string(), statusReason: z.string().optional() });

/** The review queue's buttons: approve, go live, back to approved, send back with a reason. */
export async function reviewSiteAction(siteId: string, change: z.infer<typeof review>): Promise<SiteActionResult> {
  const sent = review.safeParse(change);
  if (typeof siteId !== 'string' || !sent.success) return { ok: false, errors: { form: MALFORMED } };
  const input = parsed(updateSiteInput, sent.data);
  if (!('data' in input)) return input;
  try {
    const principal = await acting();
    const site = await updateSite(principal, siteId, input.data);
    return done(`${site.name} is now ${site.status}.`);
  } catch (err) {
    return refused(err);
  }
}

export async function deleteSiteAction(
  account: string | null,
  siteId: string,
  name: string,
): Promise<SiteActionResult> {
  if (typeof siteId !== 'string') return { ok: false, errors: { form: MALFORMED } };
  try {
    const principal = await acting(account);
    await deleteSite(principal, siteId);
    return done(`${typeof name === 'string' ? name : 'The site'} was deleted.`);
  } catch (err) {
    return refused(err);
  }
}
