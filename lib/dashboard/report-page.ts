import { todayUtc } from '@/lib/query';
import { forOneRequest, type Principal } from '@/lib/access';
import { readCompare, type CompareMode } from './comparison';
import { readFilterBar, type FilterBarState } from './filters';
import { requirePerson } from './session';
import type { SearchParams } from './url';
import { viewerOf, type Viewer } from './viewer';

/** What a report page (Overview, Sites, Countries) reads before its own figures. */
export interface ReportReading {
  kind: 'ready';
  principal: Principal;
  today: string;
  compare: CompareMode;
  /** The filter bar's range, sites and data span, and what is wrong with the URL's range, if anything. */
  bar: FilterBarState;
}

/**
 * The reading every report page starts with: whose figures it shows (or why it shows none: an admin who has
 * not chosen a publisher, a refused `?as=`), today, the comparison and the filter bar.
 */
export async function readReportPage(
  params: SearchParams,
): Promise<ReportReading | Exclude<Viewer, { kind: 'ready' }>> {
  const viewer = await viewerOf(await requirePerson(), params);
  if (viewer.kind !== 'ready') return viewer;
  // The page's reports share one read of the account's sites and data version.
  const principal = forOneRequest(viewer.principal);
  const today = todayUtc();
  const compare = readCompare(params);
  return { kind: 'ready', principal, today, compare, bar: await readFilterBar(principal, params) };
}
