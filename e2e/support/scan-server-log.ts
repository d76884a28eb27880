import fs from 'node:fs';
import path from 'node:path';
import { secretsIn } from '../../tests/support/secrets';
import { ROOT } from './servers';

/** Where playwright.config.ts's webServer writes everything it prints. */
export const SERVER_LOG = path.join(ROOT, '.data', 'e2e', 'server.log');
const AUTH_DIR = path.join(ROOT, '.data', 'e2e-auth');

/** The session tokens the setup project signed in with: their cookies, saved for the dashboard specs. */
function sessionTokens(): string[] {
  if (!fs.existsSync(AUTH_DIR)) return [];
  return fs
    .readdirSync(AUTH_DIR)
    .flatMap((file) => JSON.parse(fs.readFileSync(path.join(AUTH_DIR, file), 'utf8')).cookies ?? [])
    .filter((cookie: { name: string }) => cookie.name === 'portal_session')
    .map((cookie: { value: string }) => cookie.value);
}

/**
 * Issue 9, point 4, after the whole e2e run: the main server's output holds no raw key, key hash, session
 * token or token hash. The keys made through the dashboard are found by their shape, the sessions by value.
 */
export default async function scanServerLog() {
  if (!fs.existsSync(SERVER_LOG)) throw new Error(`no server log at ${SERVER_LOG}`);
  const output = fs.readFileSync(SERVER_LOG, 'utf8');
  const leaked = secretsIn(output, sessionTokens());
  if (leaked.length > 0) {
    throw new Error(`The e2e server's output holds secrets (${leaked.join(', ')}): see ${SERVER_LOG}`);
  }
  console.log(`Server log scanned: ${output.split('\n').length} lines, no secret.`);
}
