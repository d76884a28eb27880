/** Accounts: who is asking (Principal), which sites they may read, people, sign-in sessions and passwords. */
export { demoRefusal, isLoopbackHost } from './demo-gate';
export { MIN_PASSWORD_LENGTH, passwordProblem, setPassword } from './passwords';
export { changePassword } from './password-change';
export { requestPasswordReset, resetLinkWorks, resetPassword, sendPasswordResetAsAdmin } from './password-reset';
export { dataVersionForReads, readDataVersion } from './data-version';
export type { DataVersion } from './data-version';
export { OPERATOR } from './principal';
export type { Principal } from './principal';
export { can, isOperator, MEMBER_ROLES, OPERATOR_POWERS, requireAbility, requireOperator, ROLE_LABELS } from './roles';
export { mustSetUpTwoFactor, principalOf, signOut, signOutEverywhere, userForSession } from './sessions';
export { completeSignIn, pendingSignIn, signIn } from './sign-in';
export { deviceOf, endSession, listSessions } from './session-list';
export { listPeople } from './people-admin';
export {
  confirmTwoFactor,
  disableTwoFactor,
  recoveryCodesLeft,
  resetTwoFactorAsAdmin,
  setTwoFactorRequired,
  startTwoFactorSetup,
} from './two-factor';
export type { TwoFactorSetup } from './two-factor';
export type { SessionOrigin, SessionUser } from './sessions';
export { accountSitesColumns, forOneRequest, readableSites, requireAccountLevel, requireWritable } from './site-access';
export { listSites } from './sites';
export { createAdmin } from './admins';
export { acceptInvitation, INVITATION_LIMIT, invitationFor } from './invitations';
export {
  changeMemberRole,
  inviteMember,
  leaveAccount,
  listMembers,
  removeMember,
  resendMemberInvitation,
  revokeInvitation,
} from './members';
export {
  createPublisher,
  deactivatePublisher,
  listPublisherAccounts,
  publishersQuery,
  reactivatePublisher,
  resendInvitation,
} from './publishers';
export {
  createPublisherInput,
  ManagedSiteResponse,
  PagedManagedSites,
  PagedPublishers,
  PublisherResponse,
  SiteResponse,
} from './schemas';
export { findUserByEmail, listPublishers, requirePublisher, viewAsPublisher } from './users';
export type { UserSummary } from './users';
export { addSite, createSite, deleteSite, editOwnSite, updateSite } from './site-admin';
export {
  listManagedSites,
  listOwnSites,
  listSitesForReview,
  REVIEW_PAGE_SIZE,
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
