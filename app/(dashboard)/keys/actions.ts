'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { fieldErrorsOf, topField } from '@/lib/shared/zod-issues';
import { actingPrincipal } from '@/lib/dashboard/session';
import { addDays, isDay } from '@/lib/query';
import { AppError } from '@/lib/shared/errors';
import {
  createApiKey,
  createApiKeyForUser,
  createApiKeyInput,
  revokeApiKey,
  rotateApiKey,
  type ApiKeyResponse,
} from '@/lib/keys';

const nextDayStart = (day: string) => (isDay(day) ? `${addDays(day, 1)}T00:00:00Z` : day);

export type CreateKeyResult =
  { ok: true; apiKey: string; key: ApiKeyResponse } | { ok: false; errors: Record<string, string>; message?: string };

/** What the key dialog sends. A server action is a public endpoint: anything may arrive, so it is parsed first. */
const createKeyFields = z.object({
  label: z.string(),
  siteIds: z.array(z.string()),
  /** YYYY-MM-DD: the key works through the end of that UTC day. Empty for no expiry. */
  expiresOn: z.string(),
  /** Admins only: create the key for this publisher instead of for themselves. */
  forUserId: z.string().optional(),
});
export type CreateKeyFields = z.infer<typeof createKeyFields>;
const MALFORMED = 'The request was malformed; reload the page and try again.';

/** Validation and authorization come from the same schema and services as POST /api/v1/api-keys. */
export async function createKeyAction(account: string | null, payload: CreateKeyFields): Promise<CreateKeyResult> {
  const sent = createKeyFields.safeParse(payload);
  if (!sent.success) return { ok: false, errors: { form: MALFORMED } };
  const fields = sent.data;
  const parsed = createApiKeyInput.safeParse({
    label: fields.label || null,
    siteIds: fields.siteIds.length > 0 ? fields.siteIds : null,
    // Through the whole chosen UTC day: the key expires at the start of the next one.
    expiresAt: fields.expiresOn ? nextDayStart(fields.expiresOn) : null,
  });
  if (!parsed.success) {
    const errors: Record<string, string> = {};
    for (const e of fieldErrorsOf(parsed.error, 'form')) errors[topField(e.parameter)] ??= e.detail;
    if (errors.expiresAt) errors.expiresOn = 'Pick a valid date';
    return { ok: false, errors };
  }
  try {
    const principal = await actingPrincipal(account);
    const created = fields.forUserId
      ? await createApiKeyForUser(principal, fields.forUserId, parsed.data)
      : await createApiKey(principal, parsed.data);
    revalidatePath('/keys');
    // The raw key goes back to this one response only; it is stored nowhere but as a hash.
    return { ok: true, apiKey: created.apiKey, key: created.key };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const field = err.errors?.[0]?.parameter === 'expiresAt' ? 'expiresOn' : 'form';
    return {
      ok: false,
      errors: { [field]: field === 'expiresOn' ? 'The expiry date must be in the future' : err.detail },
    };
  }
}

/** An AppError is the caller's to read in the dialog; anything else is a bug, for the error page. */
function failed(err: unknown): { ok: false; message: string } {
  if (err instanceof AppError) return { ok: false, message: err.detail };
  throw err;
}

export async function revokeKeyAction(
  account: string | null,
  keyId: string,
): Promise<{ ok: boolean; message: string }> {
  if (typeof keyId !== 'string') return { ok: false, message: MALFORMED };
  try {
    const principal = await actingPrincipal(account);
    const key = await revokeApiKey(principal, keyId);
    revalidatePath('/keys');
    return { ok: true, message: `Key ${key.label ?? key.keyPrefix} was revoked.` };
  } catch (err) {
    return failed(err);
  }
}

export type RotateKeyResult = { ok: true; apiKey: string; key: ApiKeyResponse } | { ok: false; message: string };

/** "Rotate": a replacement key, its raw key in this one response; the old key stays until revoked. */
export async function rotateKeyAction(account: string | null, keyId: string): Promise<RotateKeyResult> {
  const sent = z.string().safeParse(keyId);
  if (!sent.success) return { ok: false, message: MALFORMED };
  try {
    const principal = await actingPrincipal(account);
    const rotated = await rotateApiKey(principal, sent.data);
    revalidatePath('/keys');
    return { ok: true, apiKey: rotated.apiKey, key: rotated.key };
  } catch (err) {
    return failed(err);
  }
}
