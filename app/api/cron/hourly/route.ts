import { cronRoute } from '@/lib/http/cron';
import { runScheduledJobs } from '@/lib/jobs';

/** Vercel Cron, hourly (vercel.json): the hourly scan for alerts, and any job that is due. */
export const GET = cronRoute(runScheduledJobs);
