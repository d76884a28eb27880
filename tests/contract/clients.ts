/**
 * `npm run contract:clients [-- --port 3352]`: clients generated from the document a production server
 * serves, by @hey-api/openapi-ts (./openapi-ts.config.ts) and by orval (./orval.config.ts), into
 * tests/contract/generated/ (not committed), unedited. Checks that their operation names are the operationIds
 * /docs shows, type-checks the two hand-written usage files against them (tests/contract/clients/), then
 * runs both against the server: every operation, each must answer as documented. Exits 1 on any failure.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { apiReference } from '@/lib/api/reference';
import type { Credentials } from './clients/credentials';
import { exitWith, GENERATED, numberOption, startContractServer } from './server';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const bin = (name: string) => path.join(ROOT, 'node_modules', '.bin', name);

function run(label: string, command: string, args: string[]): boolean {
  const result = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8' });
  if (result.status === 0) return true;
  console.error(`${label} failed (${result.status}):\n${result.stdout}${result.stderr}`);
  return false;
}

/** The operation functions a generated module exports, against the operationIds /docs lists. */
function namesDiffer(label: string, module: Record<string, unknown>, operationIds: string[]): string[] {
  const functions = Object.keys(module).filter((name) => typeof module[name] === 'function');
  // orval also exports a URL builder per operation (getGetTotalsUrl); neither tool exports anything else.
  const operations = functions.filter((name) => !/^get\w+Url$/.test(name));
  const missing = operationIds.filter((id) => !operations.includes(id)).map((id) => `${label} lacks ${id}`);
  const extra = operations.filter((name) => !operationIds.includes(name)).map((name) => `${label} adds ${name}`);
  return [...missing, ...extra];
}

/** The newest day with rows of the publisher's, so that the reports the usage files ask for are not empty. */
async function dayWithRevenue(origin: string, key: string): Promise<string> {
  const response = await fetch(`${origin}/api/v1/reports/countries?pageSize=1&sortBy=createdAt&sortDirection=desc`, {
    headers: { 'X-Api-Key': key },
  });
  const page = (await response.json()) as { data: { createdAt: string }[] };
  return page.data[0].createdAt.slice(0, 10);
}

async function main(): Promise<number> {
  const server = await startContractServer(numberOption('port', 3352), 10_000);
  try {
    for (const folder of ['hey-api', 'orval'])
      fs.rmSync(path.join(GENERATED, folder), { recursive: true, force: true });
    const generated =
      run('openapi-ts', bin('openapi-ts'), ['-f', 'tests/contract/openapi-ts.config.ts']) &&
      run('orval', bin('orval'), ['--config', 'tests/contract/orval.config.ts']);
    if (!generated) return 1;
    const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    if (!run('tsc', process.execPath, [tsc, '-p', 'tests/contract/clients/tsconfig.json'])) return 1;
    console.log('both clients generated; the usage files type-check against them');

    // Imported by computed paths: the project's type check must not follow them into generated code.
    const load = (file: string) => import(/* @vite-ignore */ path.join(import.meta.dirname, file));
    const operationIds = apiReference(server.origin).operations.map((o) => o.id);
    const differences = [
      ...namesDiffer('hey-api', await load('generated/hey-api/sdk.gen.ts'), operationIds),
      ...namesDiffer('orval', await load('generated/orval/api.ts'), operationIds),
    ];
    for (const line of differences) console.error(`NAMES ${line}`);
    if (differences.length === 0) console.log(`both name their ${operationIds.length} operations as /docs does`);

    const who: Credentials = {
      origin: server.origin,
      publisherKey: server.keys.publisher,
      adminKey: server.keys.admin,
      publisherId: server.publisherId,
      siteIds: server.siteIds,
      day: await dayWithRevenue(server.origin, server.keys.publisher),
    };
    let failed = differences.length > 0;
    for (const client of ['hey-api', 'orval']) {
      const usage = (await load(`clients/${client}-usage.ts`)) as {
        callEveryOperation(who: Credentials): Promise<string[]>;
      };
      try {
        const called = await usage.callEveryOperation(who);
        const answered = called.filter((line) => operationIds.includes(line));
        const missing = operationIds.filter((id) => !called.some((line) => line.split(' ')[0] === id));
        console.log(`${client}: ${answered.length} of ${operationIds.length} operations answered as documented`);
        for (const line of called.filter((l) => !answered.includes(l))) console.error(`${client}: ${line}`);
        if (missing.length > 0) console.error(`${client} did not call: ${missing.join(', ')}`);
        failed ||= answered.length !== operationIds.length;
      } catch (err) {
        console.error(`${client}: ${(err as Error).message}`);
        failed = true;
      }
    }
    return failed ? 1 : 0;
  } finally {
    await server.stop();
  }
}

exitWith(main);
