import fs from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';
import type { ReceivedMail } from '../../tests/support/smtp-sink';

/** Where the sink process (e2e/support/smtp-sink-process.ts) writes what it receives. */
export const MAIL_DIR = process.env.E2E_MAIL_DIR ?? '.data/e2e-mail';

function received(): ReceivedMail[] {
  if (!fs.existsSync(MAIL_DIR)) return [];
  return fs
    .readdirSync(MAIL_DIR)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(fs.readFileSync(path.join(MAIL_DIR, name), 'utf8')) as ReceivedMail);
}

/** The newest message to `address` whose subject matches, waiting for it to arrive (the sender is asynchronous). */
export async function readMail(address: string, subject: RegExp): Promise<ReceivedMail> {
  let found: ReceivedMail | undefined;
  await expect
    .poll(
      () => {
        found = received()
          .filter((m) => m.to.includes(address.toLowerCase()) && subject.test(m.subject))
          .at(-1);
        return Boolean(found);
      },
      { timeout: 30_000, message: `a message to ${address} with subject ${subject}` },
    )
    .toBe(true);
  return found!;
}

/** The link of the newest invitation e-mailed to `address`, as a path on the server under test: links travel by e-mail only. */
export async function invitationPath(address: string): Promise<string> {
  const mail = await readMail(address, /^Join /);
  const link = mail.links.find((l) => l.includes('/invitation/'));
  expect(link, `an invitation link in the mail to ${address}`).toMatch(/\/invitation\/[A-Za-z0-9_-]{40,}$/);
  return new URL(link!).pathname;
}
