import { createHash } from 'node:crypto';
import { AUDIENCE_AGE_MAX, AUDIENCE_AGE_MIN, type SeatKey, type SeatPlan, type Side } from '../../../shared/audience';
import { FORMED_MIXER_MINUTES, type SlotKey } from '../../../shared/availability';
import type { FormationSettings } from '../../../shared/formation';
import { bestSlot, type Slot, slotKeyAt } from './slots';

/**
 * Who meets whom (issue 14, docs/decisions/012): pure grouping of candidates into proposed
 * mixers, and topping up formed mixers that have free seats. No clock, no database: the job
 * loads the candidates and writes the proposals.
 *
 * Buckets, not pairs: members are split by region × intent (× seat plan for Dating); inside a
 * bucket a group grows around its highest-priority member (the anchor) on a topic, at the slot
 * most of them are free, within an age window. Members a region cannot place are pooled into
 * online mixers (region null) the same way.
 */

export const MIXER_MS = FORMED_MIXER_MINUTES * 60 * 1000;
/** How far from the anchor's age a member may be (Dating narrower than Friends and Casual). */
export const AGE_WINDOW = { Dating: 6, other: 10 } as const;
/** A formed mixer's age band is at least this wide (years). */
export const MIN_BAND_WIDTH = 8;
/** Within one bucket, stop after this many groups that could not be filled in a row. */
const MAX_FAILED_TRIES = 12;
/** Weight of a topic ask against a plain interest when choosing a bucket's topic. */
export const ASK_WEIGHT = 3;

export interface Candidate {
  id: string;
  age: number;
  /** Member's region (built-in city list), or null: then online mixers only. */
  region: string | null;
  /** Dating sides they fit (`sidesFor`). */
  sides: readonly Side[];
  lookingFor: readonly string[];
  interests: readonly string[];
  asks: readonly string[];
  availability: readonly SlotKey[];
  tz: string;
  /** reliabilityTier: 2 reliable, 1 new or mixed, 0 mostly missed. */
  tier: number;
  /** Last active (epoch ms of their latest active day); more recent goes first among equals. */
  lastActive: number;
  /** Invitations received in the 7 days before now. */
  invitesThisWeek: number;
  /** Mixers they are already invited to (pending/accepted) or in, as [start, end) epoch ms. */
  busy: readonly (readonly [number, number])[];
  /** Invitations still waiting for their answer: a member with one gets nothing new until they answer. */
  pendingInvites?: number;
  /** Topics of upcoming mixers they are in or invited to: never formed around them again meanwhile. */
  upcomingTopics?: readonly string[];
  /** Holds the verified badge; and asked to be placed only with verified members (issue 21). */
  verified?: boolean;
  onlyVerified?: boolean;
}

export interface PlanShape {
  key: string;
  plan: SeatPlan;
}

/** Seat plans formation uses for Dating (the admin presets, scaled to the group size). */
export function datingPlans(groupSize: number): PlanShape[] {
  const half = Math.floor(groupSize / 2);
  return [
    {
      key: 'straight',
      plan: [
        { side: 'women-into-men', seats: half },
        { side: 'men-into-women', seats: groupSize - half },
      ],
    },
    { key: 'gay', plan: [{ side: 'men-into-men', seats: groupSize }] },
    { key: 'lesbian', plan: [{ side: 'women-into-women', seats: groupSize }] },
    { key: 'queer', plan: [{ side: 'everyone', seats: groupSize }] },
  ];
}

/** Whom a formed mixer is for: its topic, intent, region, age band and seat plan. */
export interface FormedAudience {
  topic: string;
  intent: string;
  region: string | null;
  ageMin: number;
  ageMax: number;
  seatPlan: SeatPlan;
}

export interface Proposal extends FormedAudience {
  /** Unique: topic|region|intent|plan|age band|slot start|digest of the members. */
  formationKey: string;
  planKey: string;
  slot: Slot;
  members: { id: string; side: SeatKey }[];
  /** Distinct interests held by at least two members. */
  sharedInterests: number;
}

export interface GroupingContext {
  settings: Pick<FormationSettings, 'groupSize' | 'minSeats' | 'maxInvitesPerWeek'>;
  /** Candidate slot starts (the mixer's time zone), soonest first. */
  slots: readonly Slot[];
  /** Topics with an active template, in a stable order. */
  topics: readonly string[];
  /** Pairs who must never meet: blocked either way, or already matched. Symmetric. */
  avoid: ReadonlyMap<string, ReadonlySet<string>>;
}

/** Run-wide bookkeeping: who got something this run (one new invitation per member per run). */
interface RunState {
  placed: Set<string>;
}

/**
 * May be offered something new this run: under the weekly cap and no invitation waiting for an
 * answer (so one run never stacks a second mixer on an unanswered first, QA of issue 14).
 */
function underCap(c: Candidate, max: number) {
  return c.invitesThisWeek < max && !c.pendingInvites;
}

/** Topics a member counts for: their asks and interests, minus topics of upcoming mixers they already have. */
function topicsOf(c: Candidate): { asks: Set<string>; interests: Set<string> } {
  const upcoming = new Set(c.upcomingTopics ?? []);
  return {
    asks: new Set(c.asks.filter((t) => !upcoming.has(t))),
    interests: new Set(c.interests.filter((t) => !upcoming.has(t))),
  };
}

function overlaps(busy: Candidate['busy'], start: number, end: number) {
  return busy.some(([s, e]) => s < end && start < e);
}

/** Free at this slot: the slot falls in their grid (read in their time zone) and they have nothing else then. */
export function freeAt(c: Candidate, slotStart: number, cache?: Map<string, Map<number, boolean>>): boolean {
  let mine = cache?.get(c.id);
  const hit = mine?.get(slotStart);
  if (hit !== undefined) return hit;
  const key = slotKeyAt(slotStart, c.tz);
  const free = key !== null && c.availability.includes(key) && !overlaps(c.busy, slotStart, slotStart + MIXER_MS);
  if (cache) {
    if (!mine) {
      mine = new Map();
      cache.set(c.id, mine);
    }
    mine.set(slotStart, free);
  }
  return free;
}

function conflicts(c: Candidate, chosen: readonly { id: string }[], avoid: GroupingContext['avoid']) {
  const mine = avoid.get(c.id);
  if (!mine) return false;
  return chosen.some((o) => mine.has(o.id));
}

/** The band a group's ages make, widened to MIN_BAND_WIDTH around its middle, inside 18–99. */
export function ageBand(ages: readonly number[]): { ageMin: number; ageMax: number } {
  let lo = Math.min(...ages);
  let hi = Math.max(...ages);
  while (hi - lo < MIN_BAND_WIDTH) {
    if (lo > AUDIENCE_AGE_MIN) lo--;
    if (hi - lo < MIN_BAND_WIDTH && hi < AUDIENCE_AGE_MAX) hi++;
  }
  return { ageMin: Math.max(AUDIENCE_AGE_MIN, lo), ageMax: Math.min(AUDIENCE_AGE_MAX, hi) };
}

export function sharedInterestCount(members: readonly Candidate[]): number {
  const counts = new Map<string, number>();
  for (const m of members) for (const i of new Set(m.interests)) counts.set(i, (counts.get(i) ?? 0) + 1);
  let n = 0;
  for (const v of counts.values()) if (v >= 2) n++;
  return n;
}

/**
 * Fills a plan's sides from `ordered` (best first) at one slot: each member takes the fitting
 * side with the most open seats; then sides are trimmed so none is more than one seat above
 * another. Returns the seated members, or null below minSeats.
 */
export function fillPlan(
  ordered: readonly Candidate[],
  plan: SeatPlan,
  groupSize: number,
  minSeats: number,
  accept: (c: Candidate, chosen: readonly { id: string }[]) => boolean,
): { member: Candidate; side: SeatKey }[] | null {
  const pools: { key: SeatKey; seats: number; taken: { member: Candidate; side: SeatKey }[] }[] = plan.length
    ? plan.map((s) => ({ key: s.side, seats: s.seats, taken: [] }))
    : [{ key: 'all', seats: groupSize, taken: [] }];
  const chosen: { member: Candidate; side: SeatKey; id: string }[] = [];
  for (const c of ordered) {
    if (chosen.length >= groupSize) break;
    const fitting = pools.filter((p) => p.taken.length < p.seats && (p.key === 'all' || c.sides.includes(p.key as Side)));
    if (!fitting.length) continue;
    if (!accept(c, chosen)) continue;
    fitting.sort((a, b) => b.seats - b.taken.length - (a.seats - a.taken.length));
    const seat = { member: c, side: fitting[0].key, id: c.id };
    fitting[0].taken.push(seat);
    chosen.push(seat);
  }
  if (pools.length > 1) {
    const least = Math.min(...pools.map((p) => p.taken.length));
    for (const p of pools) p.taken.length = Math.min(p.taken.length, least + 1);
  }
  const seated = pools.flatMap((p) => p.taken);
  return seated.length >= minSeats ? seated.map(({ member, side }) => ({ member, side })) : null;
}

/**
 * topic|region|intent|plan|age band|slot start|a digest of the members. The same group at the
 * same time always gets the same key, so two runs that computed it both (say, on two
 * instances without the lock) create it once; a different group never collides. No member id
 * is readable from it.
 */
function formationKey(p: Omit<Proposal, 'formationKey' | 'members' | 'sharedInterests'>, memberIds: readonly string[]): string {
  const digest = createHash('sha256')
    .update([...memberIds].sort().join(','))
    .digest('hex')
    .slice(0, 12);
  return [p.topic, p.region ?? 'online', p.intent, p.planKey, `${p.ageMin}-${p.ageMax}`, new Date(p.slot.start).toISOString(), digest].join(
    '|',
  );
}

/** Topics of a bucket, most wanted first: asks weigh ASK_WEIGHT, plain interests 1; ties by name. */
export function rankTopics(pool: readonly Candidate[], topics: ReadonlySet<string>): string[] {
  const score = new Map<string, number>();
  for (const c of pool) adjustScores(score, c, topics, 1);
  return ranked(score);
}

/** A candidate prepared once per run: free at each of the run's slots, topics as sets. */
interface Prep {
  c: Candidate;
  free: Uint8Array;
  asks: ReadonlySet<string>;
  interests: ReadonlySet<string>;
}

const fitOf = (p: Prep, topic: string) => (p.asks.has(topic) ? 2 : p.interests.has(topic) ? 1 : 0);

/**
 * Who goes first among members who fit a topic equally: reliability (tier), then fewer
 * invitations this week (so invitations spread), then recent activity, then id (stable).
 */
function baseCompare(a: Candidate, b: Candidate) {
  return (
    b.tier - a.tier || a.invitesThisWeek - b.invitesThisWeek || b.lastActive - a.lastActive || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/** Priority order for a topic: askers, then fans, then the rest, each in base order (`list` already is) — one stable pass. */
function orderFor(list: readonly Prep[], topic: string): Prep[] {
  const asked: Prep[] = [];
  const fans: Prep[] = [];
  const rest: Prep[] = [];
  for (const p of list) {
    if (p.c.upcomingTopics?.includes(topic)) continue;
    const f = fitOf(p, topic);
    (f === 2 ? asked : f === 1 ? fans : rest).push(p);
  }
  return asked.concat(fans, rest);
}

/** Topic demand of a bucket, kept up to date as members leave it (asks weigh ASK_WEIGHT). */
function topicScores(pool: readonly Prep[], topics: ReadonlySet<string>): Map<string, number> {
  const score = new Map<string, number>();
  for (const p of pool) adjustScores(score, p, topics, 1);
  return score;
}

function adjustScores(
  score: Map<string, number>,
  p: { interests: Iterable<string>; asks: Iterable<string> },
  topics: ReadonlySet<string>,
  sign: 1 | -1,
) {
  for (const t of p.interests) if (topics.has(t)) score.set(t, (score.get(t) ?? 0) + sign);
  for (const t of p.asks) if (topics.has(t)) score.set(t, (score.get(t) ?? 0) + sign * ASK_WEIGHT);
}

const ranked = (score: Map<string, number>) =>
  [...score.entries()]
    .filter(([, v]) => v > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([t]) => t);

/**
 * Greedy groups inside one bucket (same region, intent and plan). Each round: the most wanted
 * topic among those left, its best-placed member as anchor, the slot where most of the
 * anchor's age window are free (up to the group size), then most of those holding the topic,
 * then the soonest; then seats filled in priority order. Members seated leave the bucket.
 */
function formBucket(
  pool: Prep[],
  shape: { intent: string; region: string | null; planKey: string; plan: SeatPlan },
  ctx: GroupingContext,
  topicSet: ReadonlySet<string>,
  state: RunState,
): Proposal[] {
  const { groupSize, minSeats } = ctx.settings;
  const out: Proposal[] = [];
  const window = shape.intent === 'Dating' ? AGE_WINDOW.Dating : AGE_WINDOW.other;
  let left = pool.filter((p) => !state.placed.has(p.c.id));
  let failures = 0;
  /** Anchors already tried per topic (a failed anchor is not tried again for that topic). */
  const tried = new Map<string, Set<Prep>>();
  const fail = () => ++failures >= MAX_FAILED_TRIES;
  const score = topicScores(left, topicSet);
  while (left.length >= minSeats && failures < MAX_FAILED_TRIES) {
    const topics = ranked(score);
    let formed = false;
    let attempted = false;
    for (const topic of topics) {
      const ordered = orderFor(left, topic);
      let triedHere = tried.get(topic);
      if (!triedHere) {
        triedHere = new Set();
        tried.set(topic, triedHere);
      }
      const seen = triedHere;
      const anchor = ordered.find((p) => fitOf(p, topic) > 0 && !seen.has(p));
      if (!anchor) continue;
      seen.add(anchor);
      attempted = true;
      const near = ordered.filter((p) => Math.abs(p.c.age - anchor.c.age) <= window);
      // The slot where the group can fill (free members, up to its size), then where most topic holders are free, then the soonest.
      const best =
        near.length >= minSeats
          ? bestSlot(ctx.slots, (_slot, i) => {
              if (!anchor.free[i]) return null;
              let holders = 0;
              let free = 0;
              for (const p of near) {
                if (!p.free[i]) continue;
                free++;
                if (fitOf(p, topic) > 0) holders++;
              }
              return [Math.min(free, groupSize), holders];
            })
          : null;
      if (!best || best.score[0] < minSeats) {
        if (fail()) break;
        continue;
      }
      const index = best.index;
      const atSlot = [anchor.c];
      for (const p of near) if (p !== anchor && p.free[index]) atSlot.push(p.c);
      const seated = fillPlan(atSlot, shape.plan, groupSize, minSeats, (c, chosen) => !conflicts(c, chosen, ctx.avoid));
      if (!seated) {
        if (fail()) break;
        continue;
      }
      const slot = ctx.slots[index];
      const band = ageBand(seated.map((s) => s.member.age));
      const base = { topic, intent: shape.intent, region: shape.region, ...band, seatPlan: shape.plan, planKey: shape.planKey, slot };
      out.push({
        ...base,
        formationKey: formationKey(
          base,
          seated.map((x) => x.member.id),
        ),
        members: seated.map((s) => ({ id: s.member.id, side: s.side })),
        sharedInterests: sharedInterestCount(seated.map((s) => s.member)),
      });
      for (const s of seated) state.placed.add(s.member.id);
      left = left.filter((p) => {
        if (!state.placed.has(p.c.id)) return true;
        adjustScores(score, p, topicSet, -1);
        return false;
      });
      failures = 0;
      formed = true;
      break;
    }
    if (!formed && !attempted) break;
  }
  return out;
}

interface BucketShape {
  intent: string;
  planKey: string;
  plan: SeatPlan;
  fits: (c: Candidate) => boolean;
}

function bucketShapes(groupSize: number): BucketShape[] {
  const shapes: BucketShape[] = [];
  for (const p of datingPlans(groupSize)) {
    const sides = p.plan.map((s) => s.side);
    const fits =
      p.key === 'queer'
        ? // The open side is for members whose identity or orientation no gendered plan covers, or who fit more than one.
          (c: Candidate) => c.sides.filter((s) => s !== 'everyone').length !== 1
        : (c: Candidate) => c.sides.some((s) => sides.includes(s));
    shapes.push({ intent: 'Dating', planKey: p.key, plan: p.plan, fits });
  }
  shapes.push({ intent: 'Friends', planKey: 'open', plan: [], fits: () => true });
  shapes.push({ intent: 'Casual', planKey: 'open', plan: [], fits: () => true });
  return shapes;
}

/**
 * Proposed mixers from the candidates. Regional first (region × intent × plan buckets); every
 * member no regional group placed (and members without a region) is then considered for an
 * online mixer in the same buckets. Each member gets at most one proposal per run, never one
 * overlapping something they already have, and never past the weekly cap.
 */
export function proposeMixers(candidates: readonly Candidate[], ctx: GroupingContext): Proposal[] {
  const state: RunState = { placed: new Set() };
  const topicSet = new Set(ctx.topics);
  const prepared: Prep[] = [];
  for (const c of [...candidates].sort(baseCompare)) {
    if (!underCap(c, ctx.settings.maxInvitesPerWeek)) continue;
    const free = new Uint8Array(ctx.slots.length);
    let any = false;
    for (let i = 0; i < ctx.slots.length; i++) {
      if (freeAt(c, ctx.slots[i].start)) {
        free[i] = 1;
        any = true;
      }
    }
    if (any) prepared.push({ c, free, ...topicsOf(c) });
  }
  const shapes = bucketShapes(ctx.settings.groupSize);
  const out: Proposal[] = [];

  const byRegion = new Map<string, Prep[]>();
  for (const p of prepared) {
    if (p.c.region === null) continue;
    let list = byRegion.get(p.c.region);
    if (!list) {
      list = [];
      byRegion.set(p.c.region, list);
    }
    list.push(p);
  }
  const regions = [...byRegion.keys()].sort();
  for (const shape of shapes) {
    for (const region of regions) {
      const pool = (byRegion.get(region) ?? []).filter((p) => p.c.lookingFor.includes(shape.intent) && shape.fits(p.c));
      if (pool.length < ctx.settings.minSeats) continue;
      out.push(...formBucket(pool, { ...shape, region }, ctx, topicSet, state));
    }
  }
  for (const shape of shapes) {
    const pool = prepared.filter((p) => !state.placed.has(p.c.id) && p.c.lookingFor.includes(shape.intent) && shape.fits(p.c));
    if (pool.length < ctx.settings.minSeats) continue;
    out.push(...formBucket(pool, { ...shape, region: null }, ctx, topicSet, state));
  }
  return out;
}

/** A scheduled formed mixer with free seats, as top-up sees it. */
export interface OpenMixer extends FormedAudience {
  id: string;
  maxParticipants: number;
  start: number;
  /** Members seated or holding a pending invitation, with their side. */
  holding: { id: string; side: SeatKey }[];
  /** Everyone ever invited to or in it (never invited twice). */
  known: ReadonlySet<string>;
}

/**
 * Next compatible members for formed mixers' free seats (same rules as forming: audience,
 * free at its time, no overlap, weekly cap, nobody to avoid; topic askers, then fans, then the
 * rest, each reliable and recently active first). Every side is filled up to its seats;
 * `placed` carries members already given something this run and is updated.
 */
export function topUp(
  open: readonly OpenMixer[],
  candidates: readonly Candidate[],
  ctx: Pick<GroupingContext, 'settings' | 'avoid'>,
  placed: Set<string> = new Set(),
): { mixerId: string; members: { id: string; side: SeatKey }[] }[] {
  const out: { mixerId: string; members: { id: string; side: SeatKey }[] }[] = [];
  const withSeats = open
    .map((m) => {
      const pools = m.seatPlan.length
        ? m.seatPlan.map((s) => ({ key: s.side as SeatKey, seats: s.seats }))
        : [{ key: 'all' as SeatKey, seats: m.maxParticipants }];
      return { m, free: pools.map((p) => ({ key: p.key, open: p.seats - m.holding.filter((h) => h.side === p.key).length })) };
    })
    .filter((x) => x.free.some((p) => p.open > 0));
  if (!withSeats.length) return out;
  // Buckets by intent and by region × intent, each in base order.
  const byIntent = new Map<string, Prep[]>();
  const byRegionIntent = new Map<string, Prep[]>();
  const push = (map: Map<string, Prep[]>, key: string, p: Prep) => {
    let list = map.get(key);
    if (!list) {
      list = [];
      map.set(key, list);
    }
    list.push(p);
  };
  for (const c of [...candidates].sort(baseCompare)) {
    if (!underCap(c, ctx.settings.maxInvitesPerWeek)) continue;
    const p: Prep = { c, free: new Uint8Array(0), ...topicsOf(c) };
    for (const intent of c.lookingFor) {
      push(byIntent, intent, p);
      if (c.region !== null) push(byRegionIntent, `${c.region}|${intent}`, p);
    }
  }
  const cache = new Map<string, Map<number, boolean>>();
  /** Each bucket in priority order for a topic, computed once per bucket and topic. */
  const orderedCache = new Map<string, Prep[]>();
  for (const { m, free } of withSeats) {
    const chosen: { id: string; side: SeatKey }[] = [...m.holding];
    const added: { id: string; side: SeatKey }[] = [];
    const bucketKey = m.region === null ? m.intent : `${m.region}|${m.intent}`;
    const orderedKey = `${bucketKey}|${m.topic}`;
    let ordered = orderedCache.get(orderedKey);
    if (!ordered) {
      ordered = orderFor((m.region === null ? byIntent.get(m.intent) : byRegionIntent.get(bucketKey)) ?? [], m.topic);
      orderedCache.set(orderedKey, ordered);
    }
    for (const p of ordered) {
      const c = p.c;
      if (placed.has(c.id) || m.known.has(c.id) || c.age < m.ageMin || c.age > m.ageMax) continue;
      const fitting = free.filter((s) => s.open > 0 && (s.key === 'all' || c.sides.includes(s.key as Side)));
      if (!fitting.length) continue;
      if (!freeAt(c, m.start, cache) || conflicts(c, chosen, ctx.avoid)) continue;
      fitting.sort((a, b) => b.open - a.open);
      fitting[0].open--;
      const seat = { id: c.id, side: fitting[0].key };
      chosen.push(seat);
      added.push(seat);
      placed.add(c.id);
      if (!free.some((s) => s.open > 0)) break;
    }
    if (added.length) out.push({ mixerId: m.id, members: added });
  }
  return out;
}
