import { createHash } from 'node:crypto';
import { COUNTRIES, type Country } from '@/lib/shared/countries';

/**
 * The demo data set as pure functions: who exists, which sites they own, and what every site earned in
 * every country on every day. Nothing here touches a database (db/seed.ts writes it), so unit tests can
 * check the shape of the numbers cheaply.
 */

export const DEMO_PASSWORD = 'demo-password';

/** A v5-shaped UUID from the SHA-1 of a name: demo ids are the same on every machine and every run. */
export function demoUuid(name: string): string {
  const b = createHash('sha1').update(`publisher-portal/demo/${name}`).digest();
  b[6] = (b[6] & 0x0f) | 0x50;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

export const DEMO_USERS = [
  { key: 'demo', email: 'demo@example.com', name: 'Demo Games Ltd', role: 'publisher' },
  { key: 'rival', email: 'rival@example.com', name: 'Rival Interactive', role: 'publisher' },
  { key: 'admin', email: 'admin@example.com', name: 'Portal Admin', role: 'admin' },
] as const;

type UserKey = (typeof DEMO_USERS)[number]['key'];

interface SiteSpec {
  key: string;
  owner: Exclude<UserKey, 'admin'>;
  name: string;
  url: string;
  framework: string;
  status: 'live' | 'approved' | 'pending';
  dailyActiveUsers: number;
  monthlyActiveUsers: number;
  /** Ad requests per daily active user and day. */
  adsPerUser: number;
  /** Genre and placement quality: rewarded-heavy games earn more per impression. */
  cpmFactor: number;
  /** Yearly growth of traffic (0.4 = +40 % a year; negative for a game past its peak). */
  growth: number;
  /** How long before the first day of data the site was added. */
  addedDaysEarlier: number;
}

// Not-yet-live sites still carry a year of rows: they ran on the test ad unit before (re)review, and the
// reports must cover every status.
const SITE_SPECS = [
  {
    key: 'skyHopper',
    owner: 'demo',
    name: 'Sky Hopper',
    url: 'https://skyhopper.example',
    framework: 'phaser',
    status: 'live',
    dailyActiveUsers: 84_000,
    monthlyActiveUsers: 910_000,
    adsPerUser: 4.2,
    cpmFactor: 1.1,
    growth: 0.35,
    addedDaysEarlier: 220,
  },
  {
    key: 'mergeKingdom',
    owner: 'demo',
    name: 'Merge Kingdom',
    url: 'https://mergekingdom.example',
    framework: 'unity',
    status: 'live',
    dailyActiveUsers: 52_000,
    monthlyActiveUsers: 480_000,
    adsPerUser: 5.5,
    cpmFactor: 1.3,
    growth: 0.1,
    addedDaysEarlier: 400,
  },
  {
    key: 'driftRacers',
    owner: 'demo',
    name: 'Drift Racers 3D',
    url: 'https://driftracers.example/play',
    framework: 'godot',
    status: 'live',
    dailyActiveUsers: 23_000,
    monthlyActiveUsers: 260_000,
    adsPerUser: 3.6,
    cpmFactor: 0.95,
    growth: -0.15,
    addedDaysEarlier: 610,
  },
  {
    key: 'wordGarden',
    owner: 'demo',
    name: 'Word Garden',
    url: 'https://wordgarden.example',
    framework: 'construct',
    status: 'approved',
    dailyActiveUsers: 9_500,
    monthlyActiveUsers: 88_000,
    adsPerUser: 3.1,
    cpmFactor: 1.2,
    growth: 0.6,
    addedDaysEarlier: 45,
  },
  {
    key: 'dungeonDash',
    owner: 'demo',
    name: 'Dungeon Dash',
    url: 'https://dungeondash.example',
    framework: 'pixijs',
    status: 'pending',
    dailyActiveUsers: 6_200,
    monthlyActiveUsers: 51_000,
    adsPerUser: 2.8,
    cpmFactor: 0.85,
    growth: 0.8,
    addedDaysEarlier: 12,
  },
  {
    key: 'bubblePop',
    owner: 'rival',
    name: 'Bubble Pop Saga',
    url: 'https://bubblepopsaga.example',
    framework: 'pixijs',
    status: 'live',
    dailyActiveUsers: 61_000,
    monthlyActiveUsers: 700_000,
    adsPerUser: 4.8,
    cpmFactor: 1.0,
    growth: 0.05,
    addedDaysEarlier: 530,
  },
  {
    key: 'tankArena',
    owner: 'rival',
    name: 'Tank Arena.io',
    url: 'https://tankarena.example',
    framework: 'unity',
    status: 'approved',
    dailyActiveUsers: 14_000,
    monthlyActiveUsers: 150_000,
    adsPerUser: 3.3,
    cpmFactor: 0.9,
    growth: 0.25,
    addedDaysEarlier: 90,
  },
] as const satisfies readonly SiteSpec[];

type SiteKey = (typeof SITE_SPECS)[number]['key'];

interface DemoMember {
  key: string;
  /** The account the person is a member of. */
  account: UserKey;
  email: string;
  name: string;
  role: 'owner' | 'admin' | 'finance' | 'viewer';
  /** A Viewer's sites, or null for the whole account. */
  sites: readonly SiteKey[] | null;
}

/**
 * The teams beyond each account's Owner, to try the roles with: the demo publisher's Finance and Viewer of one
 * site, and the operator's Admin, Finance and Viewer, whose platform powers follow their role (README,
 * "Operators"). They sign in with the demo password too (the demo gate checks them as well).
 */
export const DEMO_MEMBERS = [
  {
    key: 'finance',
    account: 'demo',
    email: 'finance@example.com',
    name: 'Fiona Finance',
    role: 'finance',
    sites: null,
  },
  {
    key: 'viewer',
    account: 'demo',
    email: 'viewer@example.com',
    name: 'Victor Viewer',
    role: 'viewer',
    sites: ['skyHopper'],
  },
  { key: 'opsAdmin', account: 'admin', email: 'ops-admin@example.com', name: 'Olga Ops', role: 'admin', sites: null },
  {
    key: 'opsFinance',
    account: 'admin',
    email: 'ops-finance@example.com',
    name: 'Otto Payouts',
    role: 'finance',
    sites: null,
  },
  {
    key: 'opsViewer',
    account: 'admin',
    email: 'ops-viewer@example.com',
    name: 'Olive Observer',
    role: 'viewer',
    sites: null,
  },
] as const satisfies readonly DemoMember[];
type MemberKey = (typeof DEMO_MEMBERS)[number]['key'];

export const DEMO_IDS = {
  users: Object.fromEntries(DEMO_USERS.map((u) => [u.key, demoUuid(`user:${u.key}`)])) as Record<UserKey, string>,
  sites: Object.fromEntries(SITE_SPECS.map((s) => [s.key, demoUuid(`site:${s.key}`)])) as Record<SiteKey, string>,
  people: Object.fromEntries(DEMO_MEMBERS.map((m) => [m.key, demoUuid(`person:${m.key}`)])) as Record<
    MemberKey,
    string
  >,
};

export interface DemoSite extends SiteSpec {
  id: string;
  userId: string;
  adUnitId: string;
}

export const DEMO_SITES: readonly DemoSite[] = SITE_SPECS.map((s) => ({
  ...s,
  id: DEMO_IDS.sites[s.key],
  userId: DEMO_IDS.users[s.owner],
  adUnitId: `au-${demoUuid(`ad-unit:${s.key}`).replace(/-/g, '').slice(0, 16)}`,
}));

// ---- days -------------------------------------------------------------------------------------------

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a YYYY-MM-DD (UTC) date. */
export function dayNumber(day: string): number {
  const n = /^\d{4}-\d{2}-\d{2}$/.test(day) ? Date.parse(`${day}T00:00:00Z`) / DAY_MS : Number.NaN;
  // The round trip rejects dates Date.parse rolls over, such as 2025-02-30.
  if (!Number.isInteger(n) || dayString(n) !== day) throw new Error(`Not a YYYY-MM-DD date: ${day}`);
  return n;
}

export function dayString(n: number): string {
  return new Date(n * DAY_MS).toISOString().slice(0, 10);
}

export function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}

// ---- deterministic randomness -----------------------------------------------------------------------

/** murmur3's finaliser: a cheap, well-mixed 32-bit hash step. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A uniform number in [0, 1) that depends only on its keys (fixed arity: rest parameters are slow here). */
function uniform(a: number, b: number, c = 0, d = 0, e = 0): number {
  let h = mix(0x9e3779b9 ^ a);
  h = mix((h ^ b) + 0x7f4a7c15);
  h = mix((h ^ c) + 0x7f4a7c15);
  h = mix((h ^ d) + 0x7f4a7c15);
  return mix((h ^ e) + 0x7f4a7c15) / 0x1_0000_0000;
}

/** A standard normal number (Box–Muller) that depends only on its keys. */
function gauss(a: number, b: number, c = 0, d = 0): number {
  return Math.sqrt(-2 * Math.log(1 - uniform(a, b, c, d, 1))) * Math.cos(2 * Math.PI * uniform(a, b, c, d, 2));
}

// One stream per independent quantity, so e.g. the CPM noise never correlates with the traffic noise.
const enum Stream {
  Share = 1,
  CountryCpm,
  SiteCountryCpm,
  FillBase,
  CtrBase,
  DayNoise,
  Outage,
  Requests,
  Floor,
  Fill,
  Cpm,
  Ctr,
}

const siteSeed = (site: DemoSite) => Number.parseInt(site.id.slice(0, 8), 16);
const countrySeed = (country: Country) => (country.code.charCodeAt(0) << 8) | country.code.charCodeAt(1);

// ---- the revenue model ------------------------------------------------------------------------------

export interface RevenueValues {
  adRequests: number;
  impressions: number;
  clicks: number;
  revenueMicros: number;
}

const TIER_CPM = { 1: 7.5, 2: 3.2, 3: 0.9 } as const; // USD per 1,000 impressions
const TIER_FILL = { 1: 0.9, 2: 0.85, 3: 0.76 } as const;
// Sunday..Saturday: people play web games at the weekend and on Friday evening.
const WEEKDAY_TRAFFIC = [1.22, 0.95, 0.93, 0.95, 0.98, 1.07, 1.25];
const TOTAL_WEIGHT = COUNTRIES.reduce((sum, c) => sum + c.weight, 0);
const TREND_EPOCH = dayNumber('2025-01-01');
const YEAR_EPOCH = dayNumber('2000-01-01');
/** Chance that a site's ad serving is down for a whole day (~2 days a year per site). */
const OUTAGE_RATE = 0.006;

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

/** What `site` earned in `country` on day number `day`: a pure function of its three arguments. */
export function revenueFor(site: DemoSite, day: number, country: Country): RevenueValues {
  const s = siteSeed(site);
  const c = countrySeed(country);
  const yearPhase = (2 * Math.PI * (day - YEAR_EPOCH)) / 365.2425; // 0 at Jan 1

  // Traffic: the country's share (with a per-site twist), weekday rhythm, a summer bump, slow growth.
  const share = (country.weight / TOTAL_WEIGHT) * Math.exp(0.35 * gauss(s, c, Stream.Share));
  const weekday = WEEKDAY_TRAFFIC[(day + 4) % 7]; // 1970-01-01 was a Thursday
  const summer = 1 + 0.08 * Math.cos(yearPhase - 3.37); // peaks mid-July
  const trend = Math.exp(clamp((site.growth * (day - TREND_EPOCH)) / 365, -1.5, 1.5));
  const dayNoise = Math.exp(0.06 * gauss(s, day, Stream.DayNoise));
  const expected = site.dailyActiveUsers * site.adsPerUser * share * weekday * summer * trend * dayNoise;
  // A floor keeps tiny markets above ~50 requests, so fill rates stay meaningful after rounding.
  const floor = 50 + Math.floor(30 * uniform(s, day, c, Stream.Floor));
  const adRequests = Math.max(floor, Math.round(expected * Math.exp(0.12 * gauss(s, day, c, Stream.Requests))));

  if (uniform(s, day, Stream.Outage) < OUTAGE_RATE) {
    return { adRequests, impressions: 0, clicks: 0, revenueMicros: 0 };
  }

  const fill = clamp(
    TIER_FILL[country.tier] + 0.03 * gauss(s, c, Stream.FillBase) + 0.03 * gauss(s, day, c, Stream.Fill),
    0.62,
    0.97,
  );
  const impressions = clamp(Math.round(adRequests * fill), Math.ceil(0.6 * adRequests), Math.floor(0.98 * adRequests));

  // CPM: tier, the country within its tier, the game's genre, Q4 ad budgets, daily noise.
  const q4 = 1 + 0.18 * Math.cos(yearPhase - 6.0); // peaks mid-December, trough mid-June
  const cpm =
    TIER_CPM[country.tier] *
    site.cpmFactor *
    Math.exp(0.15 * gauss(c, Stream.CountryCpm) + 0.08 * gauss(s, c, Stream.SiteCountryCpm)) *
    q4 *
    Math.exp(0.1 * gauss(s, day, c, Stream.Cpm));

  const ctrBase = 0.006 + 0.009 * uniform(s, c, Stream.CtrBase);
  const ctr = clamp(ctrBase * Math.exp(0.2 * gauss(s, day, c, Stream.Ctr)), 0.005, 0.02);

  return {
    adRequests,
    impressions,
    clicks: Math.round(impressions * ctr),
    revenueMicros: Math.round(impressions * cpm * 1000), // impressions × cpm / 1000 USD, in micro-dollars
  };
}
