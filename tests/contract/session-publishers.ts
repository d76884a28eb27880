/**
 * The session's requests to the admins' publisher operations: list, create, deactivate, reactivate and send
 * an invitation again, each with its documented errors (400, 403, 404, 406, 409, 415). Each state-changing
 * request acts on an account made for it (ContractWorld.accounts).
 */
import type { ContractWorld } from './server';
import { type Exchange, JSON_TYPES } from './session-writes';

const BASE = '/api/v1/admin/publishers';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

export function publisherRequests(world: ContractWorld, add: (e: Exchange) => void) {
  const { keys, accounts } = world;
  const admin = { 'X-Api-Key': keys.admin };
  const json = (k: string) => ({ 'X-Api-Key': k, 'Content-Type': 'application/json' });

  const list = { operationId: 'listPublishers', method: 'GET', path: `${BASE}?pageSize=5&sortBy=createdAt` } as const;
  for (const type of [undefined, ...JSON_TYPES, 'text/csv']) {
    add({
      ...list,
      what: type ? `Accept: ${type}` : 'no Accept',
      headers: { ...admin, ...(type ? { Accept: type } : {}) },
      expect: 200,
    });
  }
  add({ ...list, what: 'bad sortBy', path: `${BASE}?sortBy=password`, headers: admin, expect: 400, invalid: true });
  add({ ...list, what: 'publisher key', headers: { 'X-Api-Key': keys.publisher }, expect: 403 });
  add({
    ...list,
    what: 'Accept: application/xml',
    headers: { ...admin, Accept: 'application/xml' },
    expect: 406,
    invalid: true,
  });

  const create = { operationId: 'createPublisher', method: 'POST', path: BASE } as const;
  const body = (email: string) => JSON.stringify({ email, name: 'Contract publisher' });
  add({
    ...create,
    what: 'new e-mail',
    headers: json(keys.admin),
    body: body(`contract-${Date.now()}@example.com`),
    expect: 200,
  });
  add({ ...create, what: 'e-mail in use', headers: json(keys.admin), body: body('DEMO@example.com'), expect: 409 });
  add({ ...create, what: 'bad body', headers: json(keys.admin), body: '{"email":"x"}', expect: 400, invalid: true });
  add({ ...create, what: 'publisher key', headers: json(keys.publisher), body: body('p@example.com'), expect: 403 });
  add({
    ...create,
    what: 'Content-Type: text/plain',
    headers: { ...json(keys.admin), 'Content-Type': 'text/plain' },
    body: body('t@example.com'),
    expect: 415,
    invalid: true,
  });

  const onAccount = (operationId: string, what: string, id: string, expect: number, key = keys.admin): Exchange => ({
    operationId,
    what,
    method: 'POST',
    path: `${BASE}/${id}/${{ deactivatePublisher: 'deactivate', reactivatePublisher: 'reactivate', resendInvitation: 'invitation' }[operationId]}`,
    headers: { 'X-Api-Key': key },
    expect,
  });
  for (const operationId of ['deactivatePublisher', 'reactivatePublisher', 'resendInvitation']) {
    add(onAccount(operationId, 'unknown account', UNKNOWN_ID, 404));
    add(onAccount(operationId, 'publisher key', world.publisherId, 403, keys.publisher));
  }
  add(onAccount('deactivatePublisher', 'an active account', accounts.toDeactivate, 200));
  add(onAccount('deactivatePublisher', 'a deactivated account', accounts.toDeactivate, 409));
  add(onAccount('reactivatePublisher', 'a deactivated account', accounts.toReactivate, 200));
  add(onAccount('reactivatePublisher', 'an active account', world.publisherId, 409));
  add(onAccount('resendInvitation', 'an invited account', accounts.invited, 200));
  add(onAccount('resendInvitation', 'an active account', world.publisherId, 409));
}
