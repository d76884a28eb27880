'use server';

import { z } from 'zod';
import { acknowledgeAlert } from '@/lib/alerts';
import { serverAction } from '../action';

/** "Acknowledge" on the Alerts page: the same service as POST /api/v1/alerts/{id}/acknowledge. */
export const acknowledgeAlertAction = serverAction(
  { account: true, input: z.tuple([z.string()]), revalidate: ['/alerts', '/'] },
  async ([alertId], { principal }) => {
    await acknowledgeAlert(principal, alertId);
    return 'Alert acknowledged.';
  },
);
