/**
 * The test SMTP sink as a process of its own, for the end-to-end tests: the server under test sends to it
 * (SMTP_URL=smtp://127.0.0.1:<port>), and it writes each message it receives as JSON into a folder that a
 * spec reads (readMail in e2e/support/mail.ts).
 *
 *   npx tsx e2e/support/smtp-sink-process.ts --port 2525 --dir .data/e2e-mail
 */
import { parseArgs } from 'node:util';
import { startSmtpSink } from '../../tests/support/smtp-sink';

const { values } = parseArgs({ options: { port: { type: 'string' }, dir: { type: 'string' } } });
const sink = await startSmtpSink({ port: Number(values.port ?? 2525), dir: values.dir ?? '.data/e2e-mail' });
console.log(`SMTP sink listening at ${sink.url}, writing to ${values.dir ?? '.data/e2e-mail'}`);
const stop = () => void sink.stop().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
