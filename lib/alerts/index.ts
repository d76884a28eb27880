/** Alerts: what the portal tells an account first (unusual revenue, data that stopped, money, reviews, keys). */
export { ALERT_KINDS, type AlertKind } from '@/lib/shared/events';
export { acknowledgeAlert, listAlerts, readableKinds, revenueAlertsOf } from './list';
export { alertOnEvents } from './from-events';
export { evaluateRevenue } from './revenue';
export type { RevenueWritten } from './revenue';
export { scanAccounts } from './scan';
export { ALERT_COLUMNS, AlertResponse, alertsQuery, PagedAlerts } from './schemas';
