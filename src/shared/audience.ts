import { MIN_AGE } from './constants';
import { findCity, UK_CITIES } from './reference/uk-cities';

/**
 * Who a mixer is for (issue 13, docs/decisions/010): where, an age band and, for Dating
 * mixers, a seat plan of sides. Pure rules shared by the server (which enforces them) and
 * the client (forms, labels).
 */

export const AUDIENCE_AGE_MIN = MIN_AGE;
export const AUDIENCE_AGE_MAX = 99;
export const SIDE_SEATS_MIN = 1;
/** A plan's seats make the mixer's capacity: the same bounds as the admin form's capacity. */
export const PLAN_SEATS_MIN = 4;
export const PLAN_SEATS_MAX = 10;

/** Where: a UK region from the built-in city list, or online (null). */
// One collator: localeCompare with a locale builds one per comparison (~15 ms of a phone's start-up here).
export const AUDIENCE_REGIONS: readonly string[] = [...new Set(UK_CITIES.map((c) => c.region))].sort(new Intl.Collator('en-GB').compare);
export const ONLINE_LABEL = 'Online · anywhere in the UK';

/**
 * The sides a Dating seat plan is built from: gender identity × who they are into.
 * `everyone` is the open (queer) side: anyone looking for Dating.
 */
export const SIDES = ['women-into-men', 'men-into-women', 'men-into-men', 'women-into-women', 'everyone'] as const;
export type Side = (typeof SIDES)[number];
/** The one pool of a mixer without a seat plan (Friends, Casual). */
export const OPEN_POOL = 'all';
export type SeatKey = Side | typeof OPEN_POOL;

export const SIDE_LABELS: Record<Side, string> = {
  'women-into-men': 'women into men',
  'men-into-women': 'men into women',
  'men-into-men': 'men into men',
  'women-into-women': 'women into women',
  everyone: 'open to everyone',
};

export interface PlanSide {
  side: Side;
  seats: number;
}
export type SeatPlan = PlanSide[];

export interface Audience {
  /** Region name, or null for online. */
  region: string | null;
  ageMin: number;
  ageMax: number;
  /** Empty for Friends and Casual mixers. */
  seatPlan: SeatPlan;
}

/** Ready-made plans the admin form offers (any plan of distinct sides is valid). */
export const PLAN_PRESETS: { key: string; label: string; plan: SeatPlan }[] = [
  {
    key: 'straight',
    label: '4 women into men + 4 men into women',
    plan: [
      { side: 'women-into-men', seats: 4 },
      { side: 'men-into-women', seats: 4 },
    ],
  },
  { key: 'gay', label: '8 men into men', plan: [{ side: 'men-into-men', seats: 8 }] },
  { key: 'lesbian', label: '8 women into women', plan: [{ side: 'women-into-women', seats: 8 }] },
  { key: 'queer', label: 'open to everyone (queer mixer)', plan: [{ side: 'everyone', seats: 8 }] },
];

export const AUDIENCE_MESSAGES = {
  ageBand: `Ages must be between ${AUDIENCE_AGE_MIN} and ${AUDIENCE_AGE_MAX}, youngest first.`,
  region: 'Pick a region from the list, or online.',
  planSides: 'Each side of the seat plan can appear only once.',
  planSeats: `A seat plan needs ${PLAN_SEATS_MIN}–${PLAN_SEATS_MAX} seats in all.`,
  planOnlyDating: 'Only Dating mixers have a seat plan.',
  planNeeded: 'A Dating mixer needs a seat plan.',
  notForYou: "This mixer isn't for you — it was set up for a different group. Have a look at the mixers picked for you instead.",
  sideFull: 'The seats for people like you in this mixer are taken. Join the waitlist and we will let you know if one opens up.',
  noCity: 'Add your city to your profile to see mixers near you — until then you see online mixers only.',
} as const;

export const planSeats = (plan: SeatPlan) => plan.reduce((n, s) => n + s.seats, 0);

export const DEFAULT_AUDIENCE: Audience = { region: null, ageMin: AUDIENCE_AGE_MIN, ageMax: AUDIENCE_AGE_MAX, seatPlan: [] };

/** Eligible members per seat pool, and how many of them were active lately (admin form preview). */
export interface AudiencePreview {
  pools: { key: SeatKey; eligible: number; activeLately: number }[];
  activeDays: number;
}

/** The seat pools of a mixer: its plan's sides, or one open pool of `maxParticipants`. */
export function seatPools(plan: SeatPlan, maxParticipants: number): { key: SeatKey; seats: number }[] {
  return plan.length ? plan.map((s) => ({ key: s.side, seats: s.seats })) : [{ key: OPEN_POOL, seats: maxParticipants }];
}

/** "4 women into men + 4 men into women". */
export function planLabel(plan: SeatPlan): string {
  if (plan.length === 1 && plan[0].side === 'everyone') return `${plan[0].seats} seats open to everyone (queer mixer)`;
  return plan.map((s) => `${s.seats} ${SIDE_LABELS[s.side]}`).join(' + ');
}

export function ageBandLabel(a: Pick<Audience, 'ageMin' | 'ageMax'>): string {
  if (a.ageMin <= AUDIENCE_AGE_MIN && a.ageMax >= AUDIENCE_AGE_MAX) return 'All ages';
  if (a.ageMax >= AUDIENCE_AGE_MAX) return `${a.ageMin}+`;
  return `${a.ageMin}–${a.ageMax}`;
}

export const whereLabel = (region: string | null) => region ?? ONLINE_LABEL;

/** Region of a member's stored city (the built-in list); null when none or not in the list. */
export function regionOfCity(city: string | null | undefined): string | null {
  return city ? (findCity(city)?.region ?? null) : null;
}

/** Age in whole years on the calendar day `today` ('YYYY-MM-DD') for a 'YYYY-MM-DD' birth date. */
export function ageOn(dob: string | null | undefined, today: string): number | null {
  const b = dob?.match(/^(\d{4})-(\d{2})-(\d{2})/);
  const t = today.match(/^(\d{4})-(\d{2})-(\d{2})/);
  if (!b || !t) return null;
  let age = Number(t[1]) - Number(b[1]);
  if (Number(t[2]) < Number(b[2]) || (Number(t[2]) === Number(b[2]) && Number(t[3]) < Number(b[3]))) age -= 1;
  return age >= 0 ? age : null;
}

type Gender = 'woman' | 'man' | 'other';
const WOMEN = new Set(['woman', 'trans woman']);
const MEN = new Set(['man', 'trans man']);

function genderOf(identities: readonly string[]): Gender {
  const ids = identities.map((i) => i.toLowerCase());
  if (ids.some((i) => WOMEN.has(i))) return 'woman';
  if (ids.some((i) => MEN.has(i))) return 'man';
  return 'other';
}

/**
 * Who a member is into, from their own gender and orientations: Straight means the other
 * binary gender; Gay the same; Lesbian women; Bisexual, Pansexual and Queer both. Others
 * (Asexual, Questioning, prefer not to say…) say nothing about it.
 */
export function intoOf(identities: readonly string[], orientations: readonly string[]): { men: boolean; women: boolean } {
  const g = genderOf(identities);
  const into = { men: false, women: false };
  for (const o of orientations.map((x) => x.toLowerCase())) {
    if (o === 'straight') {
      if (g === 'woman') into.men = true;
      if (g === 'man') into.women = true;
    } else if (o === 'gay') {
      if (g === 'man') into.men = true;
      if (g === 'woman') into.women = true;
    } else if (o === 'lesbian') {
      into.women = true;
    } else if (o === 'bisexual' || o === 'pansexual' || o === 'queer') {
      into.men = true;
      into.women = true;
    }
  }
  return into;
}

export interface MemberProfileFacts {
  dob: string | null;
  city: string | null;
  genderIdentities: readonly string[];
  sexualOrientations: readonly string[];
  lookingFor: readonly string[];
}

/** What eligibility needs to know about a member, derived once per request. */
export interface MemberFacts {
  age: number | null;
  region: string | null;
  /** Dating sides this member could sit on (empty unless looking for Dating). */
  sides: Side[];
}

/** The Dating sides a member fits. Everyone looking for Dating fits the open side. */
export function sidesFor(p: Pick<MemberProfileFacts, 'genderIdentities' | 'sexualOrientations' | 'lookingFor'>): Side[] {
  if (!p.lookingFor.includes('Dating')) return [];
  const g = genderOf(p.genderIdentities);
  const into = intoOf(p.genderIdentities, p.sexualOrientations);
  const sides: Side[] = [];
  if (g === 'woman' && into.men) sides.push('women-into-men');
  if (g === 'man' && into.women) sides.push('men-into-women');
  if (g === 'man' && into.men) sides.push('men-into-men');
  if (g === 'woman' && into.women) sides.push('women-into-women');
  sides.push('everyone');
  return sides;
}

export function memberFacts(p: MemberProfileFacts, today: string): MemberFacts {
  return { age: ageOn(p.dob, today), region: regionOfCity(p.city), sides: sidesFor(p) };
}

/** A profile as the server's SQL reads it (`gender_identities as genders`, …; arrays may be null). */
export interface ProfileFactsRow {
  dob: string | null;
  city: string | null;
  genders: string[] | null;
  orientations: string[] | null;
  looking_for: string[] | null;
}

/** `memberFacts` of a profile row (eligibility, audience previews, the formation job). */
export function memberFactsOfRow(r: ProfileFactsRow | undefined, today: string): MemberFacts {
  return memberFacts(
    {
      dob: r?.dob ?? null,
      city: r?.city ?? null,
      genderIdentities: r?.genders ?? [],
      sexualOrientations: r?.orientations ?? [],
      lookingFor: r?.looking_for ?? [],
    },
    today,
  );
}

export type Ineligibility = 'age' | 'where' | 'plan';

/** Why a member may not join a mixer, or null when they may. One rule, used everywhere. */
export function ineligibility(audience: Audience, m: MemberFacts): Ineligibility | null {
  if (m.age === null || m.age < audience.ageMin || m.age > audience.ageMax) return 'age';
  if (audience.region !== null && audience.region !== m.region) return 'where';
  if (audience.seatPlan.length && !audience.seatPlan.some((s) => m.sides.includes(s.side))) return 'plan';
  return null;
}

/** The plan's sides this member fits, in plan order (the open pool when there is no plan). */
export function fittingPools(plan: SeatPlan, m: MemberFacts): SeatKey[] {
  if (!plan.length) return [OPEN_POOL];
  return plan.filter((s) => m.sides.includes(s.side)).map((s) => s.side);
}

/**
 * Which pool a joining member takes: the fitting side with the most open seats; when all are
 * full, null (waitlist) on the fitting side with the shortest waitlist.
 */
export function pickSeat(
  pools: { key: SeatKey; seats: number; joined: number; waiting: number }[],
  fitting: readonly SeatKey[],
): { key: SeatKey; state: 'joined' | 'waitlisted' } | null {
  const mine = pools.filter((p) => fitting.includes(p.key));
  if (!mine.length) return null;
  const open = mine.filter((p) => p.joined < p.seats).sort((a, b) => b.seats - b.joined - (a.seats - a.joined));
  if (open.length) return { key: open[0].key, state: 'joined' };
  const shortest = [...mine].sort((a, b) => a.waiting - b.waiting)[0];
  return { key: shortest.key, state: 'waitlisted' };
}

/** Today's date in London as 'YYYY-MM-DD' (ages follow the UK calendar day). */
export function londonToday(now = new Date()): string {
  // One formatter for all calls: making one costs more than a mixers page's own work (decision 016).
  londonDay ??= new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' });
  return londonDay.format(now);
}
let londonDay: Intl.DateTimeFormat | undefined;
