import fs from 'node:fs';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A message as the sink received it, parsed with mailparser. */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** Every http(s) link of the text part, in order. */
  links: string[];
  receivedAt: string;
}

export interface SmtpSink {
  /** smtp://127.0.0.1:<port> (with the credentials when the sink requires them): what SMTP_URL is set to. */
  readonly url: string;
  readonly port: number;
  readonly messages: ReceivedMail[];
  /** The messages sent to `address`, in the order received. */
  to(address: string): ReceivedMail[];
  /** Answer every MAIL FROM with this reply (421 and 451 say "try later", 550 "never") until called with null. */
  refuseWith(code: number | null): void;
  /** Stops listening (the port is then refused) and resolves once closed; start() listens on the same port again. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

interface SinkOptions {
  port?: number;
  /** Require AUTH PLAIN/LOGIN with these credentials (the URL carries them). */
  auth?: { user: string; pass: string };
  /** Also write each message as <n>-<to>.json into this folder (for Playwright, another process). */
  dir?: string;
}

const LINK = /https?:\/\/[^\s<>"')]+/g;

/**
 * A real SMTP server for tests (smtp-server), on 127.0.0.1 and a free port, without TLS: nodemailer talks to it
 * exactly as to a mail provider, minus STARTTLS. It collects what it receives; it can refuse mail with a
 * reply code, or stop and come back on its port, to play a mail server's outage.
 */
export async function startSmtpSink(options: SinkOptions = {}): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  let refusal: number | null = null;
  let port = options.port ?? 0;
  if (options.dir) fs.mkdirSync(options.dir, { recursive: true });

  const newServer = () =>
    new SMTPServer({
      secure: false,
      disabledCommands: options.auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
      authOptional: !options.auth,
      allowInsecureAuth: true,
      logger: false,
      onAuth(auth, _session, callback) {
        const ok = auth.username === options.auth?.user && auth.password === options.auth?.pass;
        callback(ok ? null : Object.assign(new Error('Invalid credentials'), { responseCode: 535 }), {
          user: auth.username,
        });
      },
      onMailFrom(_address, _session, callback) {
        if (refusal === null) return callback();
        callback(Object.assign(new Error(`Refused by the test sink (${refusal})`), { responseCode: refusal }));
      },
      onData(stream, _session, callback) {
        simpleParser(stream)
          .then((parsed) => {
            const text = parsed.text ?? '';
            const to = [parsed.to ?? []].flat().flatMap((group) => group.value.map((a) => a.address ?? ''));
            const mail: ReceivedMail = {
              from: parsed.from?.value[0]?.address ?? '',
              to,
              subject: parsed.subject ?? '',
              text,
              html: typeof parsed.html === 'string' ? parsed.html : '',
              links: text.match(LINK) ?? [],
              receivedAt: new Date().toISOString(),
            };
            messages.push(mail);
            if (options.dir) {
              const name = `${String(messages.length).padStart(4, '0')}-${to[0] ?? 'unknown'}.json`;
              fs.writeFileSync(path.join(options.dir, name), JSON.stringify(mail, null, 2));
            }
            callback();
          })
          .catch(callback);
      },
    });

  let server = newServer();
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        port = (server.server.address() as { port: number }).port;
        resolve();
      });
    });
  await listen();

  const credentials = options.auth
    ? `${encodeURIComponent(options.auth.user)}:${encodeURIComponent(options.auth.pass)}@`
    : '';
  return {
    get url() {
      return `smtp://${credentials}127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    messages,
    to: (address) => messages.filter((m) => m.to.includes(address.toLowerCase())),
    refuseWith(code) {
      refusal = code;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
    async start() {
      server = newServer();
      await listen();
    },
  };
}
