/**
 * cpm, fill rate and revenue are defined twice by necessity: in SQL (db/metrics.ts: filters, sorts and the
 * indexes run in the database) and in JavaScript (lib/shared/money.ts: the values the API answers with). They must
 * agree, or a row could pass `Filter=cpm>2` and then show a cpm of 2.
 */
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cpmSql, fillRateSql, revenueUsdSql } from '@/db/metrics';
import { cpmOf, fillRateOf, usdFromMicros } from '@/lib/shared/money';
import { useTestDatabase } from '../support/db';

const t = useTestDatabase();

/** The SQL values for one row, as JavaScript numbers (numeric arrives as text). */
async function inSql(micros: number, impressions: number, adRequests: number) {
  const [m, i, r] = [sql`${micros}::bigint`, sql`${impressions}::bigint`, sql`${adRequests}::bigint`];
  const rows = (await t.db.execute(
    sql`select ${cpmSql(m, i)}::text as cpm, ${fillRateSql(i, r)}::text as fill, ${revenueUsdSql(m)}::text as usd`,
  )) as unknown as { rows?: Record<string, string>[] } & Record<string, string>[];
  const row = rows.rows?.[0] ?? rows[0];
  return { cpm: Number(row.cpm), fill: Number(row.fill), usd: Number(row.usd) };
}

const close = (a: number, b: number) => a === b || Math.abs(a - b) <= 1e-12 * Math.max(Math.abs(a), Math.abs(b));

describe('the SQL and JavaScript definitions of the derived metrics', () => {
  it('agree on zeros (no impressions, no requests)', async () => {
    expect(await inSql(0, 0, 0)).toEqual({ cpm: cpmOf(0, 0), fill: fillRateOf(0, 0), usd: 0 });
    expect(await inSql(5_000_000, 0, 10)).toEqual({ cpm: cpmOf(5_000_000, 0), fill: fillRateOf(0, 10), usd: 5 });
  });

  it('agree for any row, to the last bits a double can tell apart', async () => {
    const counts = fc.integer({ min: 0, max: 2 ** 40 });
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 2 ** 50 }), counts, counts, async (micros, impressions, extra) => {
        const adRequests = impressions + (extra % 1_000_000);
        const got = await inSql(micros, impressions, adRequests);
        expect(close(got.cpm, cpmOf(micros, impressions)), `cpm ${got.cpm} vs ${cpmOf(micros, impressions)}`).toBe(
          true,
        );
        expect(close(got.fill, fillRateOf(impressions, adRequests))).toBe(true);
        expect(close(got.usd, usdFromMicros(micros))).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});
