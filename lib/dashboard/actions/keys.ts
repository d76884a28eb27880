'use server';

import { z } from 'zod';
import { addDays, isDay } from '@/lib/query';
import { ValidationError } from '@/lib/shared/errors';
import { fieldErrorsOf, topField } from '@/lib/shared/zod-issues';
import { createApiKey, createApiKeyForUser, createApiKeyInput, revokeApiKey, rotateApiKey } from '@/lib/keys';
import { serverAction } from '../action';

const nextDayStart = (day: string) => (isDay(day) ? `${addDays(day, 1)}T00:00:00Z` : day);
const KEYS = ['/keys'];

/** What the key dialog sends. A server action is a public endpoint: anything may arrive, so it is parsed first. */
const createKeyFields = z.object({
  label: z.string(),
  siteIds: z.array(z.string()),
  /** YYYY-MM-DD: the key works through the end of that UTC day. Empty for no expiry. */
  expiresOn: z.string(),
  /** Admins only: create the key for this publisher instead of for themselves. */
  forUserId: z.string().optional(),
});

/** Validation and authorization come from the same schema and services as POST /api/v1/api-keys. */
export const createKeyAction = serverAction(
  { account: true, input: z.tuple([createKeyFields]), revalidate: KEYS },
  async ([fields], { principal }) => {
    const parsed = createApiKeyInput.safeParse({
      label: fields.label || null,
      siteIds: fields.siteIds.length > 0 ? fields.siteIds : null,
      // Through the whole chosen UTC day: the key expires at the start of the next one.
      expiresAt: fields.expiresOn ? nextDayStart(fields.expiresOn) : null,
    });
    if (!parsed.success) {
      // The dialog's field is the day, not the instant the API takes.
      throw new ValidationError(
        fieldErrorsOf(parsed.error, 'form').map((e) =>
          topField(e.parameter) === 'expiresAt' ? { parameter: 'expiresOn', detail: 'Pick a valid date' } : e,
        ),
      );
    }
    const created = fields.forUserId
      ? await createApiKeyForUser(principal, fields.forUserId, parsed.data)
      : await createApiKey(principal, parsed.data);
    // The raw key goes back to this one response only; it is stored nowhere but as a hash.
    return { apiKey: created.apiKey, key: created.key };
  },
);

export const revokeKeyAction = serverAction(
  { account: true, input: z.tuple([z.string()]), revalidate: KEYS },
  async ([keyId], { principal }) => {
    const key = await revokeApiKey(principal, keyId);
    return `Key ${key.label ?? key.keyPrefix} was revoked.`;
  },
);

/** "Rotate": a replacement key, its raw key in this one response; the old key stays until revoked. */
export const rotateKeyAction = serverAction(
  { account: true, input: z.tuple([z.string()]), revalidate: KEYS },
  async ([keyId], { principal }) => {
    const rotated = await rotateApiKey(principal, keyId);
    return { apiKey: rotated.apiKey, key: rotated.key };
  },
);
