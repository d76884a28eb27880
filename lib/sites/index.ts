/** Sites: a publisher's games, their review by the operator (pending → approved → live) and their history. */
export { listSites } from './sites';
export { addSite, createSite, deleteSite, editOwnSite, updateSite } from './site-admin';
export {
  listManagedSites,
  listOwnSites,
  listSitesForReview,
  SITE_CSV_COLUMNS,
  siteHistories,
  siteHistory,
  siteListQuery,
} from './site-queries';
export type { ReviewedSite, SiteHistoryEntry } from './site-queries';
export {
  addSiteInput,
  allowedTransitions,
  createSiteInput,
  FRAMEWORK_SUGGESTIONS,
  SITE_STATUSES,
  updateSiteInput,
} from './site-rules';
export { ManagedSiteResponse, PagedManagedSites, SiteResponse } from './schemas';
