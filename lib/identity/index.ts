/** Identity: signing in (passwords, the second factor, the demo gate), sessions, and password changes and resets. */
export { checkCredentials } from './credentials';
export { demoRefusal, isLoopbackHost } from './demo-gate';
export { MIN_PASSWORD_LENGTH, passwordProblem, setPassword } from './passwords';
export { changePassword } from './password-change';
export { queueResetLink } from './password-mail';
export { requestPasswordReset, resetLinkWorks, resetPassword } from './password-reset';
export {
  endSessionsWithoutAccount,
  mustSetUpTwoFactor,
  principalOf,
  signOut,
  signOutEverywhere,
  personForSession,
} from './sessions';
export type { SessionOrigin, SessionPerson } from './sessions';
export { beginSession } from './session-open';
export type { OpenedSession } from './session-open';
export { completeSignIn, pendingSignIn, signIn } from './sign-in';
export { deviceOf, endSession, listSessions } from './session-list';
export { issueToken, TOKEN_LIFETIME_MS } from './tokens';
export {
  confirmTwoFactor,
  disableTwoFactor,
  recoveryCodesLeft,
  resetTwoFactorAsAdmin,
  setTwoFactorRequired,
  startTwoFactorSetup,
} from './two-factor';
export type { TwoFactorSetup } from './two-factor';
