import { afterAll, beforeAll } from 'vitest';
import { readEnv, setEnv } from '@/lib/platform/env';
import { type SmtpSink, startSmtpSink } from './smtp-sink';

/**
 * A file's real SMTP server, with the environment pointing the portal's mail at it (SMTP_URL) and its links at
 * `publicUrl`: started before the file's tests, stopped after them. Read the messages from `.sink`.
 */
export function useMailSink(publicUrl = 'https://portal.example.com'): { readonly sink: SmtpSink } {
  let sink: SmtpSink | undefined;
  beforeAll(async () => {
    sink = await startSmtpSink();
    setEnv(readEnv({ ...process.env, SMTP_URL: sink.url, PUBLIC_URL: publicUrl }));
  });
  afterAll(async () => {
    setEnv(undefined);
    await sink?.stop();
  });
  return {
    get sink() {
      if (!sink) throw new Error('useMailSink: the SMTP sink starts in beforeAll');
      return sink;
    },
  };
}
