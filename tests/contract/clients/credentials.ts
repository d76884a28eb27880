/** What the usage files need to call every operation: where the API is, and whose keys. */
export interface Credentials {
  origin: string;
  /** An account-level key of a publisher (demo@example.com). */
  publisherKey: string;
  /** An admin's key. */
  adminKey: string;
  /** The publisher's account id and site ids. */
  publisherId: string;
  siteIds: string[];
  /** A day with revenue, YYYY-MM-DD. */
  day: string;
}

/** The operation's name when its answer is as documented, else what came back (the session goes on). */
export function check(ok: unknown, operationId: string, detail: unknown): string {
  if (ok) return operationId;
  const text = typeof detail === 'string' ? detail : JSON.stringify(detail);
  return `${operationId} FAILED: ${text?.slice(0, 400)}`;
}

/** A small CSV of revenue for the ingestion endpoint. */
export const revenueCsv = (who: Credentials) =>
  `day,siteId,country,impressions,clicks,adRequests,revenue\n${who.day},${who.siteIds[0]},US,10,1,20,0.5\n`;
