/**
 * Who a dashboard download acts as, by the rules its page keeps: the two-factor requirement (as `requirePerson`),
 * the account the URL names (`?as=`, as `viewerOf`), the member's grant (lib/access/roles.ts) and, for what is
 * account-wide, the site scope. Every refusal is an AppError, which the cookie route answers with its status.
 */
import { mustSetUpTwoFactor, type SessionPerson } from '@/lib/identity';
import { requireAbility, requireAccountLevel, type Principal } from '@/lib/access';
import type { Ability } from '@/lib/access/browser';
import { AppError, forbidden } from '@/lib/shared/errors';
import type { SearchParams } from './url';
import { viewerOf } from './viewer';

export interface DownloadRules {
  /** What is downloaded, in the refusals' words: "reports", "statements", "the activity log". */
  what: string;
  /** The grant a member's role needs for it (the page checks the same one); any role when left out. */
  ability?: Ability;
  /** Account-wide (the log, statements): a member limited to some sites may not download it. */
  wholeAccount?: boolean;
  /**
   * An admin without `?as=` downloads as themself (the activity log: every account's), as the page shows it;
   * otherwise they are asked to choose a publisher, whose figures the download would be.
   */
  ownIsEnough?: boolean;
}

/**
 * Each download's rules, which are its page's: every role reads the reports (a Viewer only her sites, which
 * the reports' services keep to); statements as the Payments page; the log as Settings → Activity.
 */
export const DOWNLOADS = {
  reports: { what: 'reports' },
  statements: { what: 'statements', ability: 'readStatements', wholeAccount: true },
  activity: { what: 'the activity log', ability: 'readActivity', wholeAccount: true, ownIsEnough: true },
} as const satisfies Record<string, DownloadRules>;

/** Why a download refuses someone who must still set up two-factor sign-in (pages lead them to do it). */
export const TWO_FACTOR_FIRST =
  'An account of yours requires two-factor sign-in: turn it on under Settings → Security before downloading anything.';

/**
 * The principal a signed-in person downloads with, or the AppError that refuses them: the same checks, in the
 * same order, as the page the download belongs to.
 */
export async function downloaderOf(
  person: SessionPerson,
  params: SearchParams | URLSearchParams,
  { what, ability, wholeAccount = false, ownIsEnough = false }: DownloadRules,
): Promise<Principal> {
  if (mustSetUpTwoFactor(person)) throw forbidden(TWO_FACTOR_FIRST);
  const viewer = await viewerOf(person, params, { ownIsEnough });
  if (viewer.kind === 'choose') throw new AppError('invalid', `Choose a publisher (?as=) to download their ${what}.`);
  if (viewer.kind === 'refused') throw viewer.error;
  const { principal } = viewer;
  const operation = `Downloading ${what}`;
  if (ability) requireAbility(principal, ability, operation);
  if (wholeAccount) requireAccountLevel(principal, operation);
  return principal;
}
