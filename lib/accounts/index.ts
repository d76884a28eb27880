/** Accounts: publisher and operator accounts, their members and invitations, and the people who are members. */
export { listPeople, peopleQuery } from './people-admin';
export { createAdmin } from './admins';
export { acceptInvitation, INVITATION_LIMIT, invitationFor } from './invitations';
export {
  changeMemberRole,
  inviteMember,
  leaveAccount,
  listMembers,
  ownersOf,
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
  sendPasswordResetAsOperator,
} from './publishers';
export { createPublisherInput, PagedPublishers, PublisherResponse } from './schemas';
export { findAccountByEmail, listPublishers, requirePublisher, viewAsPublisher } from './users';
export type { AccountSummary } from './users';
