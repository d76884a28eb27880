/**
 * The session's site review requests: an admin lists every site, creates a site for a publisher and edits
 * one, with each documented error (400, 403, 404, 409, 415, 401, 406).
 */
import { DEMO_IDS } from '../../db/seed-data';
import type { ContractWorld } from './server';
import { type Exchange, JSON_TYPES } from './session-writes';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

export function siteReviewRequests(world: ContractWorld, add: (e: Exchange) => void) {
  const { keys } = world;
  const json = (k: string, accept?: string) => ({
    'X-Api-Key': k,
    'Content-Type': 'application/json',
    ...(accept ? { Accept: accept } : {}),
  });
  const newSite = JSON.stringify({
    publisherId: world.publisherId,
    name: 'Contract Game',
    url: 'https://contract.example.com/play',
    framework: 'phaser',
  });
  const list = { operationId: 'listAllSites', method: 'GET', path: '/api/v1/admin/sites' } as const;
  for (const type of [undefined, ...JSON_TYPES, 'text/csv'])
    add({
      ...list,
      what: type ? `Accept: ${type}` : 'no Accept',
      headers: { 'X-Api-Key': keys.admin, ...(type ? { Accept: type } : {}) },
      expect: 200,
    });
  add({
    ...list,
    what: 'the review queue',
    path: `${list.path}?FilterList%5Bstatus%5D=pending&pageSize=5`,
    headers: { 'X-Api-Key': keys.admin },
    expect: 200,
  });
  add({
    ...list,
    what: 'bad sortBy',
    path: `${list.path}?sortBy=nosuch`,
    headers: { 'X-Api-Key': keys.admin },
    expect: 400,
    invalid: true,
  });
  add({ ...list, what: 'publisher key', headers: { 'X-Api-Key': keys.publisher }, expect: 403 });
  add({ ...list, what: 'no key', headers: {}, expect: 401, invalid: true });
  add({
    ...list,
    what: 'Accept: application/xml',
    headers: { 'X-Api-Key': keys.admin, Accept: 'application/xml' },
    expect: 406,
    invalid: true,
  });

  const create = { operationId: 'createSite', method: 'POST', path: '/api/v1/admin/sites' } as const;
  for (const type of [undefined, ...JSON_TYPES])
    add({
      ...create,
      what: type ? `Accept: ${type}` : 'no Accept',
      headers: json(keys.admin, type),
      body: newSite,
      expect: 200,
    });
  add({
    ...create,
    what: 'bad body',
    headers: json(keys.admin),
    body: '{"url":"ftp://x"}',
    expect: 400,
    invalid: true,
  });
  add({ ...create, what: 'publisher key', headers: json(keys.publisher), body: newSite, expect: 403 });
  add({
    ...create,
    what: 'Content-Type: text/plain',
    headers: { ...json(keys.admin), 'Content-Type': 'text/plain' },
    body: newSite,
    expect: 415,
    invalid: true,
  });
  add({
    ...create,
    what: 'no key',
    headers: { 'Content-Type': 'application/json' },
    body: newSite,
    expect: 401,
    invalid: true,
  });
  add({
    ...create,
    what: 'Accept: application/xml',
    headers: json(keys.admin, 'application/xml'),
    body: newSite,
    expect: 406,
    invalid: true,
  });

  const update = {
    operationId: 'updateSite',
    method: 'PATCH',
    path: `/api/v1/admin/sites/${world.siteIds[0]}`,
  } as const;
  // The name it already has: a change that changes nothing, so the demo data stays as it is.
  const sameName = JSON.stringify({ name: world.siteName });
  for (const type of [undefined, ...JSON_TYPES])
    add({
      ...update,
      what: type ? `Accept: ${type}` : 'no Accept',
      headers: json(keys.admin, type),
      body: sameName,
      expect: 200,
    });
  add({
    ...update,
    what: 'bad body',
    headers: json(keys.admin),
    body: '{"status":"gone"}',
    expect: 400,
    invalid: true,
  });
  add({ ...update, what: 'publisher key', headers: json(keys.publisher), body: sameName, expect: 403 });
  add({
    ...update,
    what: 'unknown site',
    path: `/api/v1/admin/sites/${UNKNOWN_ID}`,
    headers: json(keys.admin),
    body: sameName,
    expect: 404,
  });
  add({
    ...update,
    what: 'pending straight to live',
    path: `/api/v1/admin/sites/${DEMO_IDS.sites.dungeonDash}`,
    headers: json(keys.admin),
    body: '{"status":"live"}',
    expect: 409,
  });
  add({
    ...update,
    what: 'Content-Type: text/plain',
    headers: { ...json(keys.admin), 'Content-Type': 'text/plain' },
    body: sameName,
    expect: 415,
    invalid: true,
  });
  add({
    ...update,
    what: 'no key',
    headers: { 'Content-Type': 'application/json' },
    body: sameName,
    expect: 401,
    invalid: true,
  });
}
