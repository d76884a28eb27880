'use server';

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
import { ValidationError } from '@/lib/shared/errors';
import { fieldErrorsOf } from '@/lib/shared/zod-issues';
import { serverAction } from '../action';
import { actionClientAddress } from '../session';

const PAGES = ['/sites', '/admin/sites'];

/** The principal with the client address for the activity log. */
const withAddress = async (principal: Principal): Promise<Principal> => ({
  ...principal,
  clientAddress: await actionClientAddress(),
});

/** Parses with the API's own schema, so both doors accept and refuse the same values. */
function parsed<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new ValidationError(fieldErrorsOf(result.error, 'form'));
  return result.data;
}

const siteFields = z.object({ name: z.string(), url: z.string(), framework: z.string() });

/** "Add site": a publisher's new site, pending; an admin's (with `publisherId`) for that publisher. */
export const addSiteAction = serverAction(
  {
    account: true,
    input: z.tuple([siteFields.extend({ publisherId: z.string().optional() })]),
    revalidate: PAGES,
  },
  async ([{ publisherId, ...fields }], { principal: acting }) => {
    const principal = await withAddress(acting);
    // An operator adds a site for a publisher; anyone else one of their own account's (each service checks).
    if (isOperator(principal)) {
      const site = await createSite(principal, parsed(createSiteInput, { ...fields, publisherId }));
      return `${site.name} was added for review.`;
    }
    const site = await addSite(principal, parsed(addSiteInput, fields));
    return `${site.name} was added. It is pending until an admin reviews it.`;
  },
);

/** "Edit": an admin's edit of any site, a publisher's of its own pending one. */
export const editSiteAction = serverAction(
  { account: true, input: z.tuple([z.string(), siteFields]), revalidate: PAGES },
  async ([siteId, fields], { principal: acting }) => {
    const input = parsed(addSiteInput, fields);
    const principal = await withAddress(acting);
    const site = isOperator(principal)
      ? await updateSite(principal, siteId, input)
      : await editOwnSite(principal, siteId, input);
    return `${site.name} was saved.`;
  },
);

const review = z.object({ status: z.string(), statusReason: z.string().optional() });

/** The review queue's buttons: approve, go live, back to approved, send back with a reason. */
export const reviewSiteAction = serverAction(
  { input: z.tuple([z.string(), review]), revalidate: PAGES },
  async ([siteId, change], { principal }) => {
    const site = await updateSite(await withAddress(principal), siteId, parsed(updateSiteInput, change));
    return `${site.name} is now ${site.status}.`;
  },
);

export const deleteSiteAction = serverAction(
  { account: true, input: z.tuple([z.string(), z.unknown()]), revalidate: PAGES },
  async ([siteId, name], { principal }) => {
    await deleteSite(await withAddress(principal), siteId);
    return `${typeof name === 'string' ? name : 'The site'} was deleted.`;
  },
);
