import { timingSafeEqual } from 'node:crypto';
import { env } from '@/lib/platform/env';
import { type NextHandler, respond } from './api-route';
import { ProblemError } from './problem';
import { addressPolicy, applyRateLimit } from './rate-limit';

/** Whether `given` is `expected`, compared in constant time (a secret's length is no secret). */
function same(given: string | null, expected: string): boolean {
  const a = Buffer.from(given ?? '');
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * A scheduler's route (Vercel Cron sends `Authorization: Bearer <CRON_SECRET>`): `run` answers as JSON. Without
 * CRON_SECRET the route is off (404: a server runs its schedule itself); a wrong secret is a 401 that spends the
 * client address's budget, as a wrong API key does.
 */
export function cronRoute(run: () => Promise<unknown>): NextHandler {
  return (request) =>
    respond(
      request,
      async (headers) => {
        const secret = env().CRON_SECRET;
        if (!secret) {
          throw new ProblemError({
            status: 404,
            title: 'Not Found',
            detail: 'Scheduled work over HTTP is off: set CRON_SECRET to turn it on (README, "Deploying to Vercel").',
          });
        }
        if (!same(request.headers.get('authorization'), `Bearer ${secret}`)) {
          await applyRateLimit(addressPolicy(request), headers);
          throw new ProblemError({
            status: 401,
            title: 'Unauthorized',
            detail: 'This route is for the scheduler: send "Authorization: Bearer <CRON_SECRET>".',
            headers: { 'WWW-Authenticate': 'Bearer realm="cron"' },
          });
        }
        return Response.json(await run(), { headers });
      },
      { cors: 'allow-list' },
    );
}
