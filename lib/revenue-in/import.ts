/**
 * Importing revenue rows from a CSV or NDJSON stream, for the CLI (`npm run import`) and the admin ingestion
 * endpoint alike: parse and validate every line (lib/revenue-in/parse.ts), stage the good ones with COPY, resolve
 * their sites, and apply them in one transaction (./write.ts). A file with any bad line changes
 * nothing, and every bad line is reported.
 */
import { CopyText } from '@/db/bulk';
import { getDatabase, getDb } from '@/db/client';
import { addRevenueMonths } from '@/db/revenue-months';
import { addDays, todayUtc } from '@/lib/query';
import { actorOf, recordEvent } from '@/lib/activity';
import { type ImportFormat, type LineError, parseRevenueBatches } from '@/lib/revenue-in/parse';
import { findAccountByEmail } from '@/lib/accounts';
import { requireOperator, type Principal } from '@/lib/access';
import { createStaging, resolveSites, stage, stagingValues, upsertStaged } from './write';
import type { ImportSummary } from './schemas';

export interface ImportOptions {
  format: ImportFormat;
  /** E-mail of the account whose sites the file may name, and that owns created sites. */
  owner?: string | null;
  /** Create sites the file names that do not exist yet (needs `owner`). */
  createSites?: boolean;
  /** Refuse a file with more rows than this (the ingestion endpoint's limit). */
  maxRows?: number;
  /** How many errors to keep in the result (all are counted, and all go to onError). */
  maxErrors?: number;
  /** Called with each bad line as it is found, e.g. to print them all. */
  onError?(error: LineError): void;
  /** Called as lines are read and when the rows are being applied. */
  onProgress?(progress: { rows: number; phase: 'reading' | 'applying' }): void;
  /** The last day a row may have (tests); default today UTC. */
  today?: string;
}

export type ImportResult =
  { ok: true; summary: ImportSummary } | { ok: false; errors: LineError[]; errorCount: number; tooManyRows?: boolean };

/** Thrown inside the import's transaction so that a rejected file rolls back (sites it created included). */
class Rejected extends Error {
  constructor(readonly result: ImportResult) {
    super('import rejected');
  }
}

/**
 * The first key of the transaction-scoped advisory lock that creating sites by name takes per owner (the
 * second is the owner's id, hashed). Two-key advisory locks never meet the single-key one of migrations.
 */
const CREATE_SITES_LOCK = 7_310_2025;

/** Rows per COPY: large enough to amortise a round trip, small enough to keep memory flat. */
const COPY_BATCH = 20_000;
const DEFAULT_MAX_ERRORS = 1_000;

export async function importRevenue(
  principal: Principal,
  input: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  options: ImportOptions,
): Promise<ImportResult> {
  // Only the operator may write revenue: publishers' numbers come from the ad network.
  requireOperator(principal, 'operate', 'Importing revenue');
  const started = performance.now();
  const maxErrors = options.maxErrors ?? DEFAULT_MAX_ERRORS;
  const errors: LineError[] = [];
  let errorCount = 0;
  const fail = (error: LineError) => {
    errorCount++;
    if (errors.length < maxErrors) errors.push(error);
    options.onError?.(error);
  };
  const failed = () => ({ ok: false as const, errors, errorCount });

  const owner = options.owner ? await findAccountByEmail(options.owner) : null;
  if (options.owner && !owner) {
    fail({ line: 0, field: 'owner', detail: `no account has the e-mail ${options.owner}` });
    return failed();
  }
  const database = await getDatabase();
  // This month and the last, made in a transaction of their own: what a daily import writes. Making a month
  // inside the import would hold a lock on `sites` (for the foreign key) until the whole file is applied.
  const today = options.today ?? todayUtc();
  await addRevenueMonths(database.db, addDays(today, -31), today);
  const reject = (result: ImportResult): never => {
    throw new Rejected(result);
  };
  return database
    .bulk(async (session): Promise<ImportResult> => {
      await createStaging(session);
      let rows = 0;
      const batch = new CopyText();
      // One COPY in flight while the next batch is parsed: the database stores a batch as fast as the file parses.
      let copying: Promise<void> = Promise.resolve();
      const copy = async (lines: Uint8Array<ArrayBuffer>) => {
        await copying;
        copying = stage(session, lines);
        copying.catch(() => {}); // awaited (and so thrown) before the next COPY or after the last
      };
      try {
        for await (const lines of parseRevenueBatches(input, options.format, { today })) {
          for (const parsed of lines) {
            if ('error' in parsed) {
              fail(parsed.error);
              continue;
            }
            rows++;
            if (options.maxRows !== undefined && rows > options.maxRows) reject({ ...failed(), tooManyRows: true });
            // Staged even once the file is known to be bad, so that the site checks below can report every line.
            batch.add(stagingValues(parsed.row));
            if (batch.lines === COPY_BATCH) {
              await copy(batch.take());
              options.onProgress?.({ rows, phase: 'reading' });
            }
          }
        }
      } finally {
        // Never leave a COPY half-sent: the transaction could not roll back cleanly behind it.
        await copying.catch(() => {});
      }
      if (batch.lines > 0) await copy(batch.take());
      await copying;
      options.onProgress?.({ rows, phase: 'applying' });

      if (owner && options.createSites) {
        // Site names are not unique in the schema (an account may have two sites of one name), so two imports
        // creating the same new site at once would each see none and each create one. Held until commit, this
        // lets one create it while the other waits and then finds it. Both files are read and staged before it,
        // so only their applying takes turns.
        await session.query('select pg_advisory_xact_lock($1, hashtext($2))', [CREATE_SITES_LOCK, owner.id]);
      }
      const sites = await resolveSites(
        session,
        { ownerId: owner?.id ?? null, createSites: !!options.createSites },
        maxErrors,
      );
      sites.errors.forEach((e) => options.onError?.(e));
      if (errorCount + sites.count > 0) {
        const all = [...errors, ...sites.errors].sort((a, b) => a.line - b.line).slice(0, maxErrors);
        reject({ ok: false, errors: all, errorCount: errorCount + sites.count });
      }
      const applied = await upsertStaged(session, maxErrors);
      if ('errors' in applied) {
        applied.errors.forEach((e) => options.onError?.(e));
        return reject({ ok: false, errors: applied.errors, errorCount: applied.count });
      }
      const ms = Math.round(performance.now() - started);
      return {
        ok: true,
        summary: {
          rows,
          ...applied,
          unchanged: rows - applied.inserted - applied.updated,
          sitesCreated: sites.created,
          ms,
          rowsPerSecond: Math.round((rows / Math.max(ms, 1)) * 1000),
        },
      };
    })
    .then(async (result) => {
      // After the commit: the bulk transaction is COPY's own connection; an import that did not land logs nothing.
      if (result.ok) {
        const { rows, inserted, updated, unchanged, sitesCreated } = result.summary;
        const counts = { rows, inserted, updated, unchanged, sitesCreated };
        await recordEvent(await getDb(), actorOf(principal), {
          kind: 'revenue.ingested',
          accountId: owner?.id ?? null,
          details: { ...counts, format: options.format, ...(owner ? { owner: owner.email } : {}) },
        });
      }
      return result;
    })
    .catch((error) => {
      if (error instanceof Rejected) return error.result;
      throw error;
    });
}
