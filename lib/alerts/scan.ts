import { sql } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { queryRows } from '@/db/raw-query';
import { addDays, eachDay, todayUtc } from '@/lib/query';
import { formatDay } from '@/lib/shared/format';
import { ALERT_LOOKBACK_DAYS, KEY_EXPIRING_DAYS, MISSING_AFTER_DAYS, MISSING_LOOKBACK_DAYS } from './rules';
import { type NewAlert, storeAlerts } from './record';
import { evaluateRevenue } from './revenue';

/**
 * `data.missing`: live sites of active accounts whose last day with rows lies between MISSING_LOOKBACK_DAYS and
 * MISSING_AFTER_DAYS complete days ago. The occurrence is the day after the last one with rows, so one outage is
 * one alert however many scans see it.
 */
async function missingData(today: string): Promise<NewAlert[]> {
  const db = await getDb();
  const rows = await queryRows<{ account: string; site: string; name: string | null; last: string }>(
    db,
    sql`select s.user_id as account, s.id as site, s.name, last.day::text as last
        from sites s join users u on u.id = s.user_id and u.status = 'active'
        cross join lateral (
          select max(period) as day from revenue_rollup r
          where r.user_id = s.user_id and r.grain = 'd' and r.site_id = s.id and r.country is null) last
        where s.status = 'live' and last.day between ${addDays(today, -MISSING_LOOKBACK_DAYS)}::date
          and ${addDays(today, -MISSING_AFTER_DAYS - 1)}::date`,
  );
  return rows.map(({ account, site, name, last }) => {
    const first = addDays(last, 1);
    return {
      accountId: account,
      kind: 'data.missing',
      dedupeKey: `data.missing:${site}:${first}`,
      siteId: site,
      day: first,
      message: `${name ?? 'A site'} has had no data since ${formatDay(first)}: its last rows are of ${formatDay(last)}.`,
      details: { lastDayWithData: last },
    };
  });
}

/** `key.expiring`: unrevoked keys of active accounts that expire within KEY_EXPIRING_DAYS. */
async function expiringKeys(now: Date): Promise<NewAlert[]> {
  const db = await getDb();
  const rows = await queryRows<{ account: string; id: string; label: string | null; prefix: string; at: Date }>(
    db,
    sql`select k.user_id as account, k.id, k.label, k.key_prefix as prefix, k.expires_at as at
        from api_keys k join users u on u.id = k.user_id and u.status = 'active'
        where k.revoked_at is null and k.expires_at > ${now.toISOString()}::timestamptz
          and k.expires_at <= ${new Date(now.getTime() + KEY_EXPIRING_DAYS * 86_400_000).toISOString()}::timestamptz`,
  );
  return rows.map(({ account, id, label, prefix, at }) => {
    const expiresAt = new Date(at).toISOString();
    return {
      accountId: account,
      kind: 'key.expiring',
      dedupeKey: `key.expiring:${id}:${expiresAt}`,
      subjectId: id,
      day: expiresAt.slice(0, 10),
      message: `The API key ${label ? `“${label}” ` : ''}(${prefix}…) expires on ${formatDay(expiresAt.slice(0, 10))}: rotate it before then.`,
      details: { keyPrefix: prefix, expiresAt },
    };
  });
}

/** Every active account with rows on a day from `first`, and its sites, for the scan's revenue look. */
async function accountsWithRowsSince(first: string) {
  const db = await getDb();
  return queryRows<{ account: string; sites: string[] }>(
    db,
    sql`select u.id as account, array(select s.id from sites s where s.user_id = u.id) as sites
        from users u
        where u.status = 'active' and exists (
          select from revenue_rollup r where r.user_id = u.id and r.grain = 'd' and r.site_id is null
            and r.country is null and r.period >= ${first}::date)`,
  );
}

/**
 * The hourly look at every account: sites whose data stopped, keys about to expire, and the revenue of the
 * lookback's complete days (an import judged the days it wrote; this judges them again once complete, and finds a
 * new deployment's recent ones). Alerts found before are not stored again. Returns how many alerts were new.
 */
export async function scanAccounts(now: Date = new Date()): Promise<number> {
  const today = todayUtc(now);
  const db = await getDb();
  const found = [...(await missingData(today)), ...(await expiringKeys(now))];
  let stored = await db.transaction((tx) => storeAlerts(tx, found));
  const days = eachDay(addDays(today, -ALERT_LOOKBACK_DAYS), addDays(today, -1));
  for (const { account, sites } of await accountsWithRowsSince(days[0])) {
    stored += await evaluateRevenue({ accountId: account, days, siteIds: sites }, today);
  }
  return stored;
}
