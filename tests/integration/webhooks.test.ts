/**
 * Webhooks as the Standard Webhooks specification says, against a real receiver on this machine: every delivery
 * verifies with `Webhook.verify`; a receiver that fails twice then succeeds gets one `webhook-id` three times; one
 * that keeps failing for the whole schedule (~27 h, the clock moved) is turned off, its Owners e-mailed and the log
 * told; private addresses are refused at registration and again on the connection; at most 1 KB of an answer is
 * kept; a silent receiver times out after 10 s.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { settleBackgroundTasks } from '@/lib/http/background';
import { readEnv, setEnv } from '@/lib/platform/env';
import { sendDueWebhooks, WEBHOOK_ATTEMPTS } from '@/lib/webhooks';
import { storeAlertsForTest } from './webhooks-helpers';
import { callApi, get } from '../support/api';
import { useTestDatabase } from '../support/db';
import { createPublisher } from '../support/factories';
import { issueKey } from '../support/keys';
import { expectProblem } from './api-helpers';
import { sqlRows } from './reports-helpers';

const t = useTestDatabase();

/** What the receiver answers next (the last one forever after), and what it received. */
let answers: Array<{ status: number; body?: string } | 'silence'> = [];
const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
let receiver: http.Server;
let receiverUrl: string;

beforeAll(async () => {
  receiver = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      const answer = answers.length > 1 ? answers.shift()! : answers[0];
      if (answer === 'silence') return;
      response.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body ?? 'ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});
beforeEach(async () => {
  setEnv(readEnv({ ...process.env, WEBHOOK_ALLOW_PRIVATE: '1' }));
  answers = [{ status: 200 }];
  received.length = 0;
  // The sender is this file's alone: deliveries other files left pending (a worker's database serves several files
  // on PostgreSQL) must not answer its counts, nor its own earlier tests' retries.
  await settleBackgroundTasks();
  await t.db.execute(
    sql`update webhook_deliveries set failed_at = now() where delivered_at is null and failed_at is null`,
  );
});
afterEach(() => setEnv(undefined));

async function accountWithWebhook(events = ['revenue.drop', 'data.missing']) {
  const owner = await createPublisher(t.db);
  const key = (await issueKey(owner.id)).raw;
  const created = await callApi('POST', '/api/v1/webhooks', {
    key,
    body: { url: receiverUrl, events, description: 'BI pipeline' },
  });
  expect(created.status).toBe(200);
  // The answer's kick of the outboxes runs detached here: done before the test sends on its own clock.
  await settleBackgroundTasks();
  return { owner, key, webhook: created.json.webhook, secret: created.json.secret as string };
}

/** Stores a revenue.drop alert of the account (through the alerts' own storing, which queues its deliveries). */
const dropAlert = (accountId: string) =>
  storeAlertsForTest(t.db, {
    accountId,
    kind: 'revenue.drop',
    dedupeKey: `revenue.drop:account:${Math.random()}`,
    day: '2026-11-24',
    message: 'All sites earned less.',
  });

const verify = (secret: string, { headers, body }: (typeof received)[number]) =>
  new Webhook(secret).verify(body, headers as Record<string, string>) as { type: string; data: { id: string } };

describe('registering a webhook', () => {
  it('answers the secret once, lists it without, and logs who added it', async () => {
    const { owner, key, webhook, secret } = await accountWithWebhook();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(webhook).toMatchObject({ url: receiverUrl, events: ['revenue.drop', 'data.missing'], disabledAt: null });
    const listed = await get('/api/v1/webhooks', { key });
    expect(listed.json.data).toEqual([webhook]);
    expect(listed.text).not.toContain(secret.slice(6));
    const [event] = await sqlRows<{ kind: string }>(
      t.db,
      sql`select kind from audit_events where account_id = ${owner.id} and subject_id = ${webhook.id}`,
    );
    expect(event.kind).toBe('webhook.created');
  });

  it('refuses http, credentials, unknown event types and private addresses unless WEBHOOK_ALLOW_PRIVATE=1', async () => {
    setEnv(readEnv({ ...process.env, WEBHOOK_ALLOW_PRIVATE: '0' }));
    const key = (await issueKey((await createPublisher(t.db)).id)).raw;
    const refusal = async (url: string, events = ['revenue.drop']) => {
      const res = await callApi('POST', '/api/v1/webhooks', { key, body: { url, events } });
      expectProblem(res, 400, '/api/v1/webhooks');
      return res.json.errors[0];
    };
    expect(await refusal(receiverUrl)).toMatchObject({ parameter: 'url', detail: 'must be an https: URL' });
    expect(await refusal('https://user:pw@example.com/')).toMatchObject({
      detail: 'must not carry a user name or password',
    });
    for (const url of [
      'https://127.0.0.1/',
      'https://localhost/',
      'https://169.254.169.254/latest',
      'https://[::1]/',
      'https://10.1.2.3/',
    ]) {
      expect((await refusal(url)).detail, url).toMatch(
        /^resolves to a private address \(.* is a (loopback|linkLocal|private) address\)/,
      );
    }
    expect(await refusal('https://hooks.example.com/', ['revenue.dropped'])).toMatchObject({ parameter: 'events[0]' });
  });
});

describe('delivering', () => {
  it('signs every delivery so that Webhook.verify accepts it; only the event types asked for', async () => {
    const { owner, secret } = await accountWithWebhook(['revenue.drop']);
    const [alert] = await dropAlert(owner.id);
    expect(await sendDueWebhooks()).toMatchObject({ delivered: 1 });
    expect(received).toHaveLength(1);
    const event = verify(secret, received[0]);
    expect(event).toMatchObject({
      type: 'revenue.drop',
      data: { id: alert.id, kind: 'revenue.drop', day: '2026-11-24' },
    });
    expect(received[0].headers['webhook-id']).toBe(`msg_${(await deliveriesOf(owner.id))[0].id}`);
    // A data.missing alert was not asked for.
    await storeAlertsForTest(t.db, { accountId: owner.id, kind: 'data.missing', dedupeKey: 'x', message: 'No data.' });
    expect(await sendDueWebhooks()).toMatchObject({ delivered: 0 });
  });

  it('retries a receiver that fails twice with the same webhook-id, then records it delivered', async () => {
    const { owner, key, webhook, secret } = await accountWithWebhook();
    answers = [{ status: 500 }, { status: 503 }, { status: 204 }];
    await dropAlert(owner.id);
    let now = Date.now();
    expect(await sendDueWebhooks({ now: () => new Date(now) })).toMatchObject({ retrying: 1 });
    // Not due before 5 s; then due, and 5 minutes after that the third attempt.
    expect(await sendDueWebhooks({ now: () => new Date(now + 4_000) })).toMatchObject({ retrying: 0, delivered: 0 });
    now += 6_000;
    expect(await sendDueWebhooks({ now: () => new Date(now) })).toMatchObject({ retrying: 1 });
    now += 301_000;
    expect(await sendDueWebhooks({ now: () => new Date(now) })).toMatchObject({ delivered: 1 });
    expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(received.map((r) => verify(secret, r).type)).toEqual(['revenue.drop', 'revenue.drop', 'revenue.drop']);
    const page = await get(`/api/v1/webhooks/${webhook.id}/deliveries`, { key });
    expect(page.json.data).toEqual([
      expect.objectContaining({ status: 'delivered', attempts: 3, lastStatus: 204, eventType: 'revenue.drop' }),
    ]);
  });

  it('turns off a webhook that failed every attempt for about a day: its Owners are e-mailed, the log told', async () => {
    const { owner, key, webhook } = await accountWithWebhook();
    answers = [{ status: 500, body: 'x'.repeat(5000) }];
    await dropAlert(owner.id);
    let now = Date.now();
    for (let attempt = 1; attempt <= WEBHOOK_ATTEMPTS; attempt++) {
      const report = await sendDueWebhooks({ now: () => new Date(now) });
      expect(report, `attempt ${attempt}`).toEqual(
        attempt < WEBHOOK_ATTEMPTS
          ? { delivered: 0, retrying: 1, failed: 0 }
          : { delivered: 0, retrying: 0, failed: 1 },
      );
      now += 11 * 3_600_000;
    }
    expect(now - Date.now()).toBeGreaterThan(24 * 3_600_000);
    const [listed] = (await get('/api/v1/webhooks', { key })).json.data;
    expect(listed).toMatchObject({ id: webhook.id, disabledAt: expect.any(String) });
    expect(listed.disabledReason).toMatch(
      /every attempt to deliver an event for about a day failed \(last: answered 500\)/,
    );
    const [delivery] = (await get(`/api/v1/webhooks/${webhook.id}/deliveries`, { key })).json.data;
    expect(delivery).toMatchObject({ status: 'failed', attempts: WEBHOOK_ATTEMPTS, lastStatus: 500 });
    expect(delivery.lastResponse).toHaveLength(1024);
    const mail = await sqlRows<{ recipient: string; kind: string }>(
      t.db,
      sql`select recipient, kind from mail_outbox where kind = 'webhook_disabled' and recipient = ${owner.email}`,
    );
    expect(mail).toHaveLength(1);
    const [logged] = await sqlRows<{ kind: string }>(
      t.db,
      sql`select kind from audit_events where subject_id = ${webhook.id} and kind = 'webhook.disabled'`,
    );
    expect(logged).toBeDefined();
    // Turned off: new events queue nothing for it, and a test is a 409.
    await dropAlert(owner.id);
    expect(await deliveriesOf(owner.id)).toHaveLength(1);
    expectProblem(
      await callApi('POST', `/api/v1/webhooks/${webhook.id}/test`, { key }),
      409,
      `/api/v1/webhooks/${webhook.id}/test`,
    );
  });

  it('refuses, on the connection itself, an address that became private (WEBHOOK_ALLOW_PRIVATE turned off)', async () => {
    const { owner, key, webhook } = await accountWithWebhook();
    setEnv(readEnv({ ...process.env, WEBHOOK_ALLOW_PRIVATE: '0' }));
    const test = await callApi('POST', `/api/v1/webhooks/${webhook.id}/test`, { key });
    expect(test.json).toMatchObject({
      eventType: 'webhook.test',
      status: 'pending',
      id: expect.stringMatching(/^msg_/),
    });
    // The answer's kick tries it at once (lib/http/background.ts).
    await settleBackgroundTasks();
    expect(received).toHaveLength(0);
    const [delivery] = await deliveriesOf(owner.id);
    expect(delivery.last_error).toBe('refused: 127.0.0.1 is a loopback address');
    // Its retry would reach the next test's receiver.
    expect((await callApi('DELETE', `/api/v1/webhooks/${webhook.id}`, { key })).status).toBe(200);
  });

  it('gives up an attempt after 10 s without an answer', { timeout: 30_000 }, async () => {
    const { owner } = await accountWithWebhook();
    answers = ['silence'];
    await dropAlert(owner.id);
    const started = Date.now();
    expect(await sendDueWebhooks()).toMatchObject({ retrying: 1 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(10_000);
    expect((await deliveriesOf(owner.id))[0].last_error).toBe('no answer within 10 s');
  });
});

describe('removing a webhook', () => {
  it('drops it and its deliveries; another account’s is unknown', async () => {
    const { owner, key, webhook } = await accountWithWebhook();
    const stranger = (await issueKey((await createPublisher(t.db)).id)).raw;
    const path = `/api/v1/webhooks/${webhook.id}`;
    expectProblem(await callApi('DELETE', path, { key: stranger }), 404, path);
    for (const [method, unknown] of [
      ['DELETE', '/api/v1/webhooks/not-a-uuid'],
      ['POST', '/api/v1/webhooks/not-a-uuid/test'],
      ['GET', '/api/v1/webhooks/not-a-uuid/deliveries'],
    ]) {
      expectProblem(await callApi(method, unknown, { key }), 404, unknown);
    }
    await dropAlert(owner.id);
    expect((await callApi('DELETE', path, { key })).status).toBe(200);
    expect(await deliveriesOf(owner.id)).toHaveLength(0);
    expect((await get('/api/v1/webhooks', { key })).json.data).toEqual([]);
  });
});

const deliveriesOf = (accountId: string) =>
  sqlRows<{ id: string; last_error: string | null }>(
    t.db,
    sql`select d.id, d.last_error from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
        where e.account_id = ${accountId} order by d.created_at`,
  );
