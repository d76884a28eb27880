import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '@/db/client';
import { queueMail, renderMail } from '@/lib/mail';
import { setEnv } from '@/lib/platform/env';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';
import { cli } from '../support/cli';

/**
 * `npm run mail -- outbox | send` on an embedded database folder of its own, run in this process through
 * runCli as scripts/cli.ts does, with the environment an operator would set.
 */

let dir: string;
let sink: SmtpSink;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-cli-mail-'));
  sink = await startSmtpSink();
});
afterEach(() => setEnv(undefined));
afterAll(async () => {
  await sink.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const LINK = 'https://portal.example.com/invitation/abc123';

describe('npm run mail', () => {
  // Each command opens and migrates the embedded folder: seconds each on a busy machine.
  it(
    'prints the outbox with each message’s text and links, sends what is due, then lists it as sent',
    { timeout: 120_000 },
    async () => {
      const pglite = path.join(dir, 'pglite');
      const empty = await cli(['mail', 'outbox'], { PGLITE_DIR: pglite });
      expect(empty).toMatchObject({ code: 0, stdout: '0 messages to send' });

      const database = await openPglite(pglite);
      try {
        const { text, html } = renderMail({
          greeting: 'Hello Ada,',
          paragraphs: ['You are invited.'],
          action: { label: 'Accept the invitation', url: LINK },
        });
        await queueMail(database.db, {
          kind: 'invitation',
          to: 'ada@cli.example',
          subject: 'You are invited',
          text,
          html,
        });
      } finally {
        await database.close();
      }

      const listed = await cli(['mail', 'outbox'], { PGLITE_DIR: pglite });
      expect(listed.code).toBe(0);
      expect(listed.stdout).toMatch(/^1 message to send/);
      expect(listed.stdout).toContain('To:       ada@cli.example');
      expect(listed.stdout).toContain('Subject:  You are invited');
      expect(listed.stdout).toMatch(/Status: {3}pending {4}attempts 0/);
      expect(listed.stdout).toContain(`Accept the invitation: ${LINK}`);

      const refused = await cli(['mail', 'send'], { PGLITE_DIR: pglite });
      expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining('SMTP_URL is not set') });

      const sent = await cli(['mail', 'send'], { PGLITE_DIR: pglite, SMTP_URL: sink.url });
      expect(sent).toMatchObject({ code: 0, stdout: 'Sent 1; 0 to retry later; 0 refused for good.' });
      expect(sink.to('ada@cli.example').map((m) => m.links)).toEqual([[LINK]]);

      const after = await cli(['mail', 'outbox'], { PGLITE_DIR: pglite });
      expect(after.stdout).toMatch(/^0 messages to send\n\n\nRecently sent or given up \(1, newest first\)/);
      expect(after.stdout).toMatch(/Status: {3}sent \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC {4}attempts 1/);
    },
  );

  it('explains its usage', async () => {
    const wrong = await cli(['mail', 'bogus'], { PGLITE_DIR: path.join(dir, 'unused') });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('unknown action "bogus"');
    expect(wrong.stderr).toContain('Usage: npm run mail -- outbox');
    expect((await cli(['mail', 'outbox', '--recent', 'x'], {})).code).toBe(2);
  });
});
