'use server';

import { z } from 'zod';
import { createWebhook, createWebhookInput, deleteWebhook, sendTestWebhook } from '@/lib/webhooks';
import { ValidationError } from '@/lib/shared/errors';
import { fieldErrorsOf } from '@/lib/shared/zod-issues';
import { serverAction } from '../action';

const WEBHOOKS = ['/settings/webhooks'];

/** What the "Add webhook" dialog sends; parsed by the API's own schema, as POST /api/v1/webhooks does. */
const addFields = z.object({ url: z.string(), description: z.string(), events: z.array(z.string()) });

export const addWebhookAction = serverAction(
  { account: true, input: z.tuple([addFields]), revalidate: WEBHOOKS },
  async ([fields], { principal }) => {
    const parsed = createWebhookInput.safeParse({ ...fields, description: fields.description || null });
    if (!parsed.success) throw new ValidationError(fieldErrorsOf(parsed.error, 'form'));
    // The signing secret goes back to this one response only.
    return createWebhook(principal, parsed.data);
  },
);

export const removeWebhookAction = serverAction(
  { account: true, input: z.tuple([z.string()]), revalidate: WEBHOOKS },
  async ([id], { principal }) => {
    await deleteWebhook(principal, id);
    return 'The webhook was removed.';
  },
);

export const testWebhookAction = serverAction(
  { account: true, input: z.tuple([z.string()]), revalidate: WEBHOOKS },
  async ([id], { principal }) => {
    await sendTestWebhook(principal, id);
    return 'A test event is on its way; its delivery is listed below in a moment.';
  },
);
