/**
 * What a site may be: its fields' rules and the review's transitions, each written once, for the services
 * (site-admin.ts), the API's request bodies and the dashboard's forms alike.
 */
import { z } from 'zod';

export const SITE_STATUSES = ['pending', 'approved', 'live'] as const;
export type SiteStatus = (typeof SITE_STATUSES)[number];

/**
 * The review's moves, from each status. Sending back to pending is open from every status, pending included
 * (a second look that still finds something wrong), and always needs a reason; every other move clears it.
 */
const TRANSITIONS: Record<SiteStatus, readonly SiteStatus[]> = {
  pending: ['approved', 'pending'],
  approved: ['live', 'pending'],
  live: ['approved', 'pending'],
};

export const allowedTransitions = (from: SiteStatus): readonly SiteStatus[] => TRANSITIONS[from];
export const isAllowedTransition = (from: SiteStatus, to: SiteStatus) => TRANSITIONS[from].includes(to);

/** Engines publishers often name; the field is free text (engines come and go), these are only suggestions. */
export const FRAMEWORK_SUGGESTIONS = [
  'phaser',
  'pixijs',
  'unity',
  'godot',
  'construct',
  'playcanvas',
  'babylonjs',
  'threejs',
  'cocos',
  'defold',
  'gamemaker',
  'custom',
] as const;

const NO_CONTROL = /^[^\u0000-\u001f\u007f]*$/;

const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .regex(NO_CONTROL, 'must not contain control characters');

const siteName = text(100);
const siteFramework = text(40).meta({
  description: `The game's engine, free text; e.g. ${FRAMEWORK_SUGGESTIONS.slice(0, 5).join(', ')}`,
});
const statusReason = text(500);

/** An absolute http(s) address with a host and no credentials in it: what a reviewer can open. */
const siteUrl = z
  .string()
  .trim()
  .max(2048, 'must be at most 2048 characters')
  .refine((raw) => {
    if (!URL.canParse(raw)) return false;
    const url = new URL(raw);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && !url.username;
  }, 'must be an http:// or https:// address with a host, e.g. https://example.com/game')
  .meta({ format: 'uri' });

/** A publisher's new site: it starts pending. */
export const addSiteInput = z.strictObject({ name: siteName, url: siteUrl, framework: siteFramework });
export type AddSiteInput = z.infer<typeof addSiteInput>;

/** An admin's new site, for any publisher, in any status (an existing game may start live). */
export const createSiteInput = z
  .strictObject({
    publisherId: z.guid('must be a UUID').transform((id) => id.toLowerCase()),
    ...addSiteInput.shape,
    status: z.enum(SITE_STATUSES).optional().meta({ description: 'Where the site starts: pending unless given' }),
  })
  .meta({ id: 'CreateSiteRequest' });
export type CreateSiteInput = z.infer<typeof createSiteInput>;

/** A change to a site: any of its fields, and (admins) its status; at least one field. */
export const updateSiteInput = z
  .strictObject({
    status: z.enum(SITE_STATUSES).optional(),
    statusReason: statusReason
      .optional()
      .meta({ description: 'Required with status pending: why the site is sent back, shown to the publisher' }),
    name: siteName.optional(),
    url: siteUrl.optional(),
    framework: siteFramework.optional(),
  })
  .meta({ id: 'UpdateSiteRequest' });
export type UpdateSiteInput = z.infer<typeof updateSiteInput>;
