/**
 * The server both contract sessions talk to: the production build (`npm run build`; built here when missing
 * or stale) run by scripts/serve.mjs on a fresh embedded database, seeded with the demo data when the folder
 * is new, and the keys the sessions need, made in process before the server opens the folder. The document
 * the server serves (or the one `--document <file>` names) is written to tests/contract/generated/openapi.json:
 * Prism and the generators read it.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getDb } from '@/db/client';
import { alerts, webhookDeliveries, webhookEndpoints } from '@/db/schema-alerts';
import { createPublisher, deactivatePublisher, findAccountByEmail } from '@/lib/accounts';
import { listSites } from '@/lib/sites';
import { COMMAND_LINE, type Principal } from '@/lib/access';
import { createApiKey, MAX_ACTIVE_KEYS, revokeApiKey } from '@/lib/keys';
import { readEnv, setEnv } from '@/lib/platform/env';
import { startServer } from '../../scripts/bench/server';
import { withDatabase } from '../../scripts/open-database';
import { buildIfNeeded } from '../../scripts/production-build.mjs';

export const GENERATED = path.join(import.meta.dirname, 'generated');
export const DOCUMENT_FILE = path.join(GENERATED, 'openapi.json');

interface ContractKeys {
  /** An account-level key of demo@example.com. */
  publisher: string;
  /** A key of demo@example.com scoped to its first site. */
  siteScoped: string;
  /** A key of admin@example.com. */
  admin: string;
  /** A revoked key of demo@example.com: answered 401. */
  revoked: string;
  /** A key of rival@example.com, whose account holds the most active keys it may (a 409 on the next). */
  full: string;
  /** A key of demo@example.com used only to spend its minute's budget (the 429). */
  spender: string;
}

export interface ContractWorld {
  keys: ContractKeys;
  /** demo@example.com's account id, its site ids (oldest first) and its first site's name. */
  publisherId: string;
  siteIds: string[];
  siteName: string;
  /** Ids of keys of demo@example.com for the session to revoke. */
  revocableKeyIds: string[];
  /** rival@example.com's account id (full of keys) and one of its sites (outside demo's scope). */
  rivalId: string;
  rivalSiteId: string;
  /** Publisher accounts for the publisher operations to change: one invited, one deactivated, one to deactivate. */
  accounts: { invited: string; toReactivate: string; toDeactivate: string };
  /** Open alerts, written straight into the `alerts` table: demo@example.com's unless said otherwise. */
  alerts: ContractAlerts;
  /**
   * Webhooks, written straight into the `webhook_endpoints` table: demo@example.com's unless said otherwise,
   * each to https://hooks.invalid/… (a name that never resolves: a delivery the server tries fails at once).
   */
  webhooks: ContractWebhooks;
}

interface ContractWebhooks {
  /** Turned on, with two delivered deliveries: the one the session lists the deliveries of and tests. */
  active: string;
  /** Turned off (it failed for about a day), with the delivery that failed: testing it is a 409. */
  off: string;
  /** For the Prism session to remove one each (the clients remove the ones they add). */
  toDelete: string[];
  /** rival@example.com's: outside demo's account. Its account holds the most webhooks it may (a 409 on the next). */
  rival: string;
}

interface ContractAlerts {
  /** About the first site: the one the site-scoped key reads. */
  keySite: string;
  /** About the second site: outside the site-scoped key's scope. */
  otherSite: string;
  /** About the account as a whole (no site): outside any site-scoped key's scope too. */
  account: string;
  /** About the second site, for the session to acknowledge one each (the clients acknowledge others they list). */
  toAcknowledge: string[];
  /** rival@example.com's, about its site: outside demo's account. */
  rival: string;
}

/** The alerts the contract sessions read and acknowledge, each a revenue drop or spike or data that stopped. */
async function makeAlerts(demoId: string, siteIds: string[], rivalId: string, rivalSiteId: string) {
  const db = await getDb();
  const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
  const revenue = (accountId: string, siteId: string | null, kind: 'revenue.drop' | 'revenue.spike') => ({
    accountId,
    kind,
    dedupeKey: `contract:${kind}:${siteId ?? 'account'}:${day(2)}`,
    siteId,
    day: day(2),
    message: `${siteId ? 'A contract site' : 'The account'} earned $40.00 on ${day(2)}, 60.0% ${kind === 'revenue.drop' ? 'below' : 'above'} the usual $100.00.`,
    details: { expected: 100, actual: kind === 'revenue.drop' ? 40 : 160, bandLow: 70, bandHigh: 130, drivers: [] },
  });
  const missing = (i: number) => ({
    accountId: demoId,
    kind: 'data.missing',
    dedupeKey: `contract:data.missing:${siteIds[1]}:${day(10 + i)}`,
    siteId: siteIds[1],
    day: day(10 + i),
    message: `A contract site has had no data since ${day(10 + i)}.`,
    details: { lastDay: day(11 + i) },
  });
  const insert = async (row: typeof alerts.$inferInsert) =>
    (await db.insert(alerts).values(row).returning({ id: alerts.id }))[0].id;
  const toAcknowledge: string[] = [];
  for (let i = 0; i < 4; i++) toAcknowledge.push(await insert(missing(i)));
  return {
    keySite: await insert(revenue(demoId, siteIds[0], 'revenue.drop')),
    otherSite: await insert(revenue(demoId, siteIds[1], 'revenue.spike')),
    account: await insert(revenue(demoId, null, 'revenue.drop')),
    rival: await insert(revenue(rivalId, rivalSiteId, 'revenue.drop')),
    toAcknowledge,
  };
}

/** The most webhooks an account may have (lib/webhooks/endpoints.ts): the rival's account holds that many. */
const MAX_WEBHOOKS = 10;

/**
 * The webhooks the contract sessions list, test and remove, and the deliveries of two of them. Demo's are 6: the
 * Prism session removes 4 before it adds 4 (the clients add and remove one each), under the 10 an account may have.
 */
async function makeWebhooks(demoId: string, rivalId: string): Promise<ContractWebhooks> {
  const db = await getDb();
  const webhook = async (accountId: string, name: string, off?: string) => {
    const [row] = await db
      .insert(webhookEndpoints)
      .values({
        accountId,
        url: `https://hooks.invalid/contract/${name}`,
        description: `Contract webhook ${name}`,
        events: ['revenue.drop', 'data.missing'],
        secret: `whsec_${randomBytes(24).toString('base64')}`,
        ...(off ? { disabledAt: new Date(Date.now() - 3_600_000), disabledReason: off } : {}),
      })
      .returning({ id: webhookEndpoints.id });
    return row.id;
  };
  const active = await webhook(demoId, 'active');
  const off = await webhook(
    demoId,
    'off',
    'every attempt to deliver an event for about a day failed (last: answered 500).',
  );
  // Delivered or given up: the server's sender never tries them again.
  const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);
  const delivery = (endpointId: string, eventType: string, attempts: number, done: 'delivered' | 'failed') => ({
    endpointId,
    eventType,
    payload: { type: eventType, timestamp: hoursAgo(30).toISOString(), data: { contract: true } },
    attempts,
    createdAt: hoursAgo(30),
    nextAttemptAt: hoursAgo(2),
    lastAttemptAt: hoursAgo(2),
    lastStatus: done === 'delivered' ? 200 : 500,
    lastError: done === 'delivered' ? null : 'answered 500',
    lastResponse: done === 'delivered' ? 'ok' : 'Internal Server Error',
    ...(done === 'delivered' ? { deliveredAt: hoursAgo(2) } : { failedAt: hoursAgo(2) }),
  });
  await db
    .insert(webhookDeliveries)
    .values([
      delivery(active, 'revenue.drop', 1, 'delivered'),
      delivery(active, 'data.missing', 2, 'delivered'),
      delivery(off, 'revenue.drop', 8, 'failed'),
    ]);
  const toDelete: string[] = [];
  for (let i = 0; i < 4; i++) toDelete.push(await webhook(demoId, `to-delete-${i}`));
  const rival: string[] = [];
  while (rival.length < MAX_WEBHOOKS) rival.push(await webhook(rivalId, `rival-${rival.length}`));
  return { active, off, toDelete, rival: rival[0] };
}

const principalOf = async (email: string): Promise<Principal> => {
  const user = await findAccountByEmail(email);
  if (!user) throw new Error(`the demo data has no ${email}`);
  return { userId: user.id, role: user.role, siteScope: null, via: 'session' };
};

const keyOf = async (principal: Principal, label: string, siteIds: string[] | null = null) =>
  (await createApiKey(principal, { label, siteIds })).apiKey;

async function makeWorld(): Promise<ContractWorld> {
  return withDatabase(async () => {
    const demo = await principalOf('demo@example.com');
    const rival = await principalOf('rival@example.com');
    const admin = await principalOf('admin@example.com');
    const sites = await listSites(demo);
    const siteIds = sites.map((s) => s.siteId);
    const rivalSiteId = (await listSites(rival))[0].siteId;
    const revoked = await createApiKey(demo, { label: 'contract revoked', siteIds: null });
    await revokeApiKey(demo, revoked.key.id);
    const revocableKeyIds: string[] = [];
    for (let i = 0; i < 4; i++) {
      revocableKeyIds.push((await createApiKey(demo, { label: `contract revocable ${i}`, siteIds: null })).key.id);
    }
    const rivalKeys: string[] = [];
    while (rivalKeys.length < MAX_ACTIVE_KEYS) rivalKeys.push(await keyOf(rival, `contract ${rivalKeys.length}`));
    const account = async (what: string) =>
      (await createPublisher(COMMAND_LINE, { email: `contract-${what}-${Date.now()}@example.com`, name: what }))
        .publisher.id;
    const accounts = {
      invited: await account('invited'),
      toReactivate: await account('to-reactivate'),
      toDeactivate: await account('to-deactivate'),
    };
    await deactivatePublisher(COMMAND_LINE, accounts.toReactivate);
    return {
      accounts,
      alerts: await makeAlerts(demo.userId, siteIds, rival.userId, rivalSiteId),
      webhooks: await makeWebhooks(demo.userId, rival.userId),
      keys: {
        publisher: await keyOf(demo, 'contract publisher'),
        siteScoped: await keyOf(demo, 'contract site-scoped', siteIds.slice(0, 1)),
        admin: await keyOf(admin, 'contract admin'),
        revoked: revoked.apiKey,
        full: rivalKeys[0],
        spender: await keyOf(demo, 'contract spender'),
      },
      publisherId: demo.userId,
      siteIds,
      siteName: sites[0].name ?? '',
      revocableKeyIds,
      rivalId: rival.userId,
      rivalSiteId,
    };
  });
}

export interface ContractServer extends ContractWorld {
  origin: string;
  /** Requests per key per minute on this server. */
  keyLimit: number;
  output(): string;
  stop(): Promise<void>;
}

/** `--name N` from the command line, or the fallback. */
export const numberOption = (name: string, fallback: number) =>
  Number(new RegExp(`--${name}[= ](\\d+)`).exec(process.argv.slice(2).join(' '))?.[1] ?? fallback);

export async function startContractServer(port: number, keyLimit: number): Promise<ContractServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-contract-'));
  setEnv(readEnv({ ...process.env, DATABASE_URL: '', PGLITE_DIR: dataDir }));
  console.log(`contract: demo database in ${dataDir}`);
  const world = await makeWorld();
  if (buildIfNeeded() !== 0) throw new Error('npm run build failed');
  const server = await startServer({
    port,
    database: { PGLITE_DIR: dataDir },
    rateLimitPerMinute: keyLimit,
    interrupted: () => false,
  });
  // `--document <file>` tries a candidate document (say, a change not yet served) against the same server.
  const candidate = /--document[= ](\S+)/.exec(process.argv.slice(2).join(' '))?.[1];
  const document = candidate
    ? fs.readFileSync(candidate, 'utf8')
    : await (await fetch(`${server.origin}/api/v1/openapi.json`)).text();
  if (candidate) console.log(`contract: the document is ${candidate}, not the served one`);
  fs.mkdirSync(GENERATED, { recursive: true });
  // Written whole, then renamed: the other contract session (CI runs both side by side) may be reading it.
  const written = `${DOCUMENT_FILE}.${process.pid}`;
  fs.writeFileSync(written, document);
  fs.renameSync(written, DOCUMENT_FILE);
  return {
    ...world,
    origin: server.origin,
    keyLimit,
    output: server.output,
    async stop() {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs a contract session and exits with its code: 1 when it threw, after printing why. */
export function exitWith(main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
