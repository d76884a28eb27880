/**
 * zod, set up for wherever it runs: every schema that the browser may load is built with this z. Building an
 * object schema makes zod probe for eval (to compile its parser), and the pages' CSP (proxy.ts) forbids eval:
 * in the browser every page would report a violation. Importing z from here turns that compiler off there
 * before the importing module builds anything; the server keeps the compiled path.
 */
import { z } from 'zod';

if (typeof window !== 'undefined') z.config({ jitless: true });

export { z };
