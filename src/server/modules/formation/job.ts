import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { londonToday, memberFactsOfRow, type SeatKey, type SeatPlan } from '../../../shared/audience';
import type { SlotKey } from '../../../shared/availability';
import { DEFAULT_FORMATION_SETTINGS, type FormationSettings, INVITATION_CUTOFF_MS } from '../../../shared/formation';
import { MAX_UPCOMING_MIXERS } from '../../../shared/schemas/mixers';
import { mutedInMixers } from '../safety/service';
import type { Db } from '../../db/client';
import { startPeriodicJob } from '../../infra/jobs/periodic';
import { announceInvitations } from '../invitations/service';
import { parseJson, rowsOf } from '../../lib/sql';
import { reliabilityTierSql } from '../reliability/service';
import { isVerifiedSql } from '../verification/service';
import { type Candidate, MIXER_MS, type OpenMixer, type Proposal, proposeMixers, topUp } from './grouping';
import { DEFAULT_TZ, upcomingSlots } from './slots';
import { loadActiveTemplates, type TopicTemplate } from './templates';

/**
 * The formation job (issue 14, docs/decisions/012): reads demand, proposes mixers
 * (grouping.ts), creates them with pending invitations, tops up formed mixers with free seats,
 * audits every automatic action and, after commit, announces the invitations.
 *
 * Several instances on one PostgreSQL: a run holds a transaction-scoped advisory lock, so one
 * run at a time does the work (the others return `locked`); and even without it nothing is
 * created twice, because `mixers.formation_key` and `mixer_invitations (mixer_id, user_id)` are
 * unique and every insert is `on conflict do nothing`.
 */

/** How often each instance tries a run. */
export const FORMATION_INTERVAL_MS = 10 * 60 * 1000;
/** Only members active on some day in this many days are invited. */
export const ACTIVE_DAYS = 14;
/** pg advisory lock key of the formation job ("FORM" in ASCII). */
export const FORMATION_LOCK_KEY = 0x464f524d;
const DAY_MS = 24 * 60 * 60 * 1000;
const WEEK_MS = 7 * DAY_MS;

export interface FormationRun {
  /** Why nothing was done: settings paused, or another run holds the lock. */
  skipped?: 'paused' | 'locked';
  candidates: number;
  /** Mixers created. */
  mixers: string[];
  /** Invitations created (new mixers and top-ups). */
  invitations: string[];
  /** Invitations added to existing mixers. */
  toppedUp: number;
  ms: number;
  /** Milliseconds spent per phase (load, top-up, grouping, writes), for the simulation's report. */
  phases: Record<string, number>;
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export async function loadSettings(db: Pick<Db, 'execute'>): Promise<FormationSettings> {
  const [row] = rowsOf<Record<string, unknown>>(
    await db.execute(sql`select paused, group_size, min_seats, hold_hours, max_invites_per_week, lead_hours, horizon_days
                           from formation_settings where id = 1`),
  );
  if (!row) return DEFAULT_FORMATION_SETTINGS;
  return {
    paused: Boolean(row.paused),
    groupSize: Number(row.group_size),
    minSeats: Number(row.min_seats),
    holdHours: Number(row.hold_hours),
    maxInvitesPerWeek: Number(row.max_invites_per_week),
    leadHours: Number(row.lead_hours),
    horizonDays: Number(row.horizon_days),
  };
}

interface CandidateRow {
  id: string;
  dob: string;
  city: string | null;
  genders: string[];
  orientations: string[];
  looking_for: string[];
  interests: string[];
  asks: string[];
  availability: string[];
  tz: string | null;
  last_active: string | number;
  invites: string | number;
  tier: string | number;
  verified: boolean | null;
  only_verified: boolean | null;
}

/**
 * Everyone who may be invited, in four statements: members onboarded, with a confirmed
 * address, not suspended, with availability, a birth date and an intent, active in the last
 * ACTIVE_DAYS; their invitations this week, reliability tier, what they already have on, and
 * who they must not meet (blocks either way, earlier matches), and who already holds MAX_UPCOMING_MIXERS.
 */
export async function loadCandidates(
  db: Pick<Db, 'execute'>,
  now: Date,
): Promise<{ candidates: Candidate[]; avoid: Map<string, Set<string>> }> {
  const at = now.toISOString();
  const since = new Date(now.getTime() - ACTIVE_DAYS * DAY_MS).toISOString().slice(0, 10);
  const weekAgo = new Date(now.getTime() - WEEK_MS).toISOString();
  const rows = rowsOf<CandidateRow>(
    await db.execute(sql`
      select p.id, to_char(p.dob, 'YYYY-MM-DD') as dob, p.city_region as city, p.gender_identities as genders,
             p.sexual_orientations as orientations, p.looking_for, p.interests, p.topic_asks as asks, p.availability, p.tz,
             (extract(epoch from act.last_day::timestamp) * 1000)::bigint as last_active,
             coalesce(inv.n, 0) as invites,
             ${reliabilityTierSql(sql`p.id`)} as tier,
             ${isVerifiedSql(sql`p.id`)} as verified, coalesce(p.preferences->>'onlyVerified' = 'true', false) as only_verified
        from profiles p
        join "user" u on u.id = p.id
        join (select user_id, max(day) as last_day from daily_activity where day >= ${since}::date group by user_id) act on act.user_id = p.id
        left join (select user_id, count(*) as n from mixer_invitations where created_at > ${weekAgo}::timestamptz group by user_id) inv
               on inv.user_id = p.id
       where p.onboarding_completed and u.email_verified and u.banned is not true and not ${mutedInMixers(sql`p.id`)}
         and cardinality(p.availability) > 0 and cardinality(p.looking_for) > 0 and p.dob is not null`),
  );
  const busy = new Map<string, [number, number][]>();
  const pending = new Map<string, number>();
  const upcomingTopics = new Map<string, string[]>();
  for (const b of rowsOf<{ user_id: string; s: string | number; e: string | number; topic: string; waiting: boolean }>(
    await db.execute(sql`
      select i.user_id, (extract(epoch from m.starts_at) * 1000)::bigint as s, (extract(epoch from m.ends_at) * 1000)::bigint as e,
             m.topic, (i.status = 'pending' and i.expires_at > ${at}::timestamptz) as waiting
        from mixer_invitations i join mixers m on m.id = i.mixer_id
       where i.status in ('pending', 'accepted') and m.status in ('scheduled', 'live') and m.ends_at > ${at}::timestamptz
      union all
      select c.user_id, (extract(epoch from m.starts_at) * 1000)::bigint, (extract(epoch from m.ends_at) * 1000)::bigint,
             m.topic, false
        from mixer_memberships c join mixers m on m.id = c.mixer_id
       where c.state in ('joined', 'waitlisted') and m.status in ('scheduled', 'live') and m.ends_at > ${at}::timestamptz`),
  )) {
    let list = busy.get(b.user_id);
    if (!list) {
      list = [];
      busy.set(b.user_id, list);
    }
    list.push([Number(b.s), Number(b.e)]);
    if (b.waiting) pending.set(b.user_id, (pending.get(b.user_id) ?? 0) + 1);
    const topics = upcomingTopics.get(b.user_id) ?? [];
    if (!topics.includes(b.topic)) upcomingTopics.set(b.user_id, [...topics, b.topic]);
  }
  const avoid = new Map<string, Set<string>>();
  const link = (a: string, b: string) => {
    let s = avoid.get(a);
    if (!s) {
      s = new Set();
      avoid.set(a, s);
    }
    s.add(b);
  };
  for (const r of rowsOf<{ a: string; b: string }>(
    await db.execute(sql`select blocker_id as a, blocked_id as b from blocks union all select profile1_id, profile2_id from matches`),
  )) {
    link(r.a, r.b);
    link(r.b, r.a);
  }
  // "Place me only with verified members" (Settings, issue 21): they avoid everyone without the badge.
  const unverified = rows.filter((r) => !r.verified).map((r) => r.id);
  for (const r of rows) {
    if (!r.only_verified) continue;
    for (const other of unverified) {
      if (other === r.id) continue;
      link(r.id, other);
      link(other, r.id);
    }
  }
  // Members who already hold MAX_UPCOMING_MIXERS upcoming mixers (seats and held invitations,
  // issue 32) could not take another seat: no invitation for them this run.
  const atCap = new Set(
    rowsOf<{ user_id: string }>(
      await db.execute(sql`
        select h.user_id from (
          select c.user_id, c.mixer_id from mixer_memberships c join mixers m on m.id = c.mixer_id
           where c.state = 'joined' and m.status = 'scheduled' and m.starts_at > ${at}::timestamptz
          union
          select i.user_id, i.mixer_id from mixer_invitations i join mixers m on m.id = i.mixer_id
           where i.status = 'pending' and i.expires_at > ${at}::timestamptz and m.status = 'scheduled' and m.starts_at > ${at}::timestamptz
        ) h group by h.user_id having count(*) >= ${MAX_UPCOMING_MIXERS}`),
    ).map((r) => r.user_id),
  );
  const today = londonToday(now);
  const candidates: Candidate[] = [];
  for (const r of rows) {
    if (atCap.has(r.id)) continue;
    const facts = memberFactsOfRow(r, today);
    if (facts.age === null || facts.age < 18) continue;
    candidates.push({
      id: r.id,
      age: facts.age,
      region: facts.region,
      sides: facts.sides,
      lookingFor: r.looking_for ?? [],
      interests: r.interests ?? [],
      asks: r.asks ?? [],
      availability: (r.availability ?? []) as SlotKey[],
      tz: r.tz || DEFAULT_TZ,
      tier: Number(r.tier),
      lastActive: Number(r.last_active),
      invitesThisWeek: Number(r.invites),
      busy: busy.get(r.id) ?? [],
      pendingInvites: pending.get(r.id) ?? 0,
      upcomingTopics: upcomingTopics.get(r.id) ?? [],
      verified: Boolean(r.verified),
      onlyVerified: Boolean(r.only_verified),
    });
  }
  return { candidates, avoid };
}

/**
 * Scheduled formed mixers starting more than the invitation cutoff from now, with who holds a
 * seat (joined, or a pending invitation) and everyone ever invited to or in them: three
 * set-based statements, put together here.
 */
async function loadOpenMixers(db: Pick<Db, 'execute'>, now: Date): Promise<OpenMixer[]> {
  const after = new Date(now.getTime() + INVITATION_CUTOFF_MS).toISOString();
  const open = sql`select id from mixers where origin = 'auto' and status = 'scheduled' and starts_at > ${after}::timestamptz`;
  const rows = rowsOf<{
    id: string;
    topic: string;
    intent: string;
    audience_region: string | null;
    age_min: number;
    age_max: number;
    seat_plan: SeatPlan | string;
    max_participants: number;
    start: string | number;
  }>(
    await db.execute(sql`
      select m.id, m.topic, m.intent, m.audience_region, m.age_min, m.age_max, m.seat_plan, m.max_participants,
             (extract(epoch from m.starts_at) * 1000)::bigint as start
        from mixers m
       where m.origin = 'auto' and m.status = 'scheduled' and m.starts_at > ${after}::timestamptz`),
  );
  if (!rows.length) return [];
  const people = rowsOf<{ mixer_id: string; user_id: string; side: string; holds: boolean }>(
    await db.execute(sql`
      select c.mixer_id, c.user_id, c.side, c.state = 'joined' as holds
        from mixer_memberships c where c.mixer_id in (${open})
      union all
      select i.mixer_id, i.user_id, i.side, i.status = 'pending' as holds
        from mixer_invitations i where i.mixer_id in (${open})`),
  );
  const byMixer = new Map<string, { holding: Map<string, SeatKey>; known: Set<string> }>();
  for (const r of rows) byMixer.set(r.id, { holding: new Map(), known: new Set() });
  for (const p of people) {
    const entry = byMixer.get(p.mixer_id);
    if (!entry) continue;
    entry.known.add(p.user_id);
    if (p.holds) entry.holding.set(p.user_id, p.side as SeatKey);
  }
  return rows.map((r) => {
    const entry = byMixer.get(r.id)!;
    return {
      id: r.id,
      topic: r.topic,
      intent: r.intent,
      region: r.audience_region,
      ageMin: Number(r.age_min),
      ageMax: Number(r.age_max),
      seatPlan: parseJson<SeatPlan>(r.seat_plan, []),
      maxParticipants: Number(r.max_participants),
      start: Number(r.start),
      holding: [...entry.holding].map(([id, side]) => ({ id, side })),
      known: entry.known,
    };
  });
}

/**
 * Pending invitations, each holding its seat until min(now + hold hours, start − cutoff), and
 * one `formation.invited` audit row per invitation created, in one statement (rows travel as
 * one JSON parameter, so any number of them is one round trip). Existing pairs are skipped.
 */
async function insertInvitations(
  tx: Tx,
  now: Date,
  holdHours: number,
  rows: { mixer_id: string; user_id: string; side: string }[],
  topUp: boolean,
): Promise<string[]> {
  if (!rows.length) return [];
  const at = now.toISOString();
  return rowsOf<{ id: string }>(
    await tx.execute(sql`
      with x as (select * from json_to_recordset(${JSON.stringify(rows)}::json) as r(mixer_id uuid, user_id text, side text)),
      ins as (
        insert into mixer_invitations (mixer_id, user_id, side, status, created_at, expires_at)
        select x.mixer_id, x.user_id, x.side, 'pending', ${at}::timestamptz,
               least(${at}::timestamptz + make_interval(hours => ${holdHours}::int),
                     m.starts_at - make_interval(secs => ${INVITATION_CUTOFF_MS / 1000}::int))
          from x join mixers m on m.id = x.mixer_id
          -- Suspended in the meantime: never invited (issue 30).
          join "user" iu on iu.id = x.user_id and iu.banned is not true
        on conflict (mixer_id, user_id) do nothing
        returning id, mixer_id, user_id, side
      ),
      audit as (
        insert into audit_log (action, target, details, created_at)
        select 'formation.invited', ins.mixer_id::text,
               json_build_object('userId', ins.user_id, 'side', ins.side, 'topUp', ${topUp}::boolean)::text, ${at}::timestamptz
          from ins
      )
      select id from ins`),
  ).map((r) => r.id);
}

/**
 * The proposed mixers (title, description, theme and icebreaker from the topic's template)
 * with one `formation.mixer_created` audit row each, in one statement; a formation key that
 * exists already (another run made it) is skipped.
 */
async function insertMixers(
  tx: Tx,
  now: Date,
  groupSize: number,
  proposals: Proposal[],
  templates: Map<string, TopicTemplate>,
): Promise<{ id: string; formation_key: string }[]> {
  if (!proposals.length) return [];
  const at = now.toISOString();
  const rows = proposals.map((p) => {
    const t = templates.get(p.topic)!;
    return {
      title: t.title,
      topic: p.topic,
      description: t.description,
      theme: t.theme,
      icebreaker: t.icebreaker,
      intent: p.intent,
      starts_at: new Date(p.slot.start).toISOString(),
      ends_at: new Date(p.slot.start + MIXER_MS).toISOString(),
      audience_region: p.region,
      age_min: p.ageMin,
      age_max: p.ageMax,
      seat_plan: p.seatPlan,
      formation_key: p.formationKey,
      details: JSON.stringify({
        topic: p.topic,
        intent: p.intent,
        region: p.region,
        ageMin: p.ageMin,
        ageMax: p.ageMax,
        plan: p.planKey,
        startsAt: new Date(p.slot.start).toISOString(),
        invited: p.members.length,
        sharedInterests: p.sharedInterests,
      }),
    };
  });
  return rowsOf<{ id: string; formation_key: string }>(
    await tx.execute(sql`
      with x as (
        select * from json_to_recordset(${JSON.stringify(rows)}::json) as r(
          title text, topic text, description text, theme text, icebreaker text, intent text, starts_at timestamptz,
          ends_at timestamptz, audience_region text, age_min int, age_max int, seat_plan jsonb, formation_key text, details text)
      ),
      ins as (
        insert into mixers (title, topic, description, theme, tags, intent, status, starts_at, ends_at, max_participants, icebreaker,
                            audience_region, age_min, age_max, seat_plan, origin, formation_key, created_at)
        select title, topic, description, theme, array[topic], intent, 'scheduled', starts_at, ends_at, ${groupSize}::int, icebreaker,
               audience_region, age_min, age_max, seat_plan, 'auto', formation_key, ${at}::timestamptz
          from x
        on conflict (formation_key) do nothing
        returning id, formation_key
      ),
      audit as (
        insert into audit_log (action, target, details, created_at)
        select 'formation.mixer_created', ins.id::text, x.details, ${at}::timestamptz from ins join x on x.formation_key = ins.formation_key
      )
      select id, formation_key from ins`),
  );
}

/** One run's work inside its transaction (lock already held). */
async function formInside(tx: Tx, now: Date, settings: FormationSettings): Promise<Omit<FormationRun, 'ms' | 'skipped'>> {
  const phases: Record<string, number> = {};
  let lap = performance.now();
  const mark = (name: string) => {
    const at = performance.now();
    phases[name] = Math.round((phases[name] ?? 0) + at - lap);
    lap = at;
  };
  const templates = await loadActiveTemplates(tx);
  const { candidates, avoid } = await loadCandidates(tx, now);
  mark('load');

  // 1. Top-up: free seats of formed mixers go to the next compatible members.
  const placed = new Set<string>();
  const open = await loadOpenMixers(tx, now);
  mark('loadOpen');
  const fills = topUp(open, candidates, { settings, avoid }, placed);
  mark('topUp');
  const toppedUpRows = await insertInvitations(
    tx,
    now,
    settings.holdHours,
    fills.flatMap((f) => f.members.map((m) => ({ mixer_id: f.mixerId, user_id: m.id, side: m.side }))),
    true,
  );
  mark('write');

  // 2. New mixers from everyone left.
  const slots = upcomingSlots(now.getTime(), settings.leadHours, settings.horizonDays, DEFAULT_TZ);
  const proposals = proposeMixers(
    candidates.filter((c) => !placed.has(c.id)),
    { settings, slots, topics: [...templates.keys()], avoid },
  );
  mark('group');
  const byKey = new Map<string, Proposal>(proposals.map((p) => [p.formationKey, p]));
  const created = await insertMixers(tx, now, settings.groupSize, proposals, templates);
  const invited = await insertInvitations(
    tx,
    now,
    settings.holdHours,
    created.flatMap((r) => byKey.get(r.formation_key)!.members.map((m) => ({ mixer_id: r.id, user_id: m.id, side: m.side }))),
    false,
  );
  // A new mixer of verified members only, where one of them asked for that, is marked verified-only
  // (issue 21): nobody without the badge can join it later through a direct link or a top-up.
  const byId = new Map(candidates.map((c) => [c.id, c]));
  const verifiedOnly = created
    .filter((r) => {
      const members = byKey.get(r.formation_key)?.members ?? [];
      return members.every((m) => byId.get(m.id)?.verified) && members.some((m) => byId.get(m.id)?.onlyVerified);
    })
    .map((r) => r.id);
  if (verifiedOnly.length) {
    await tx.execute(sql`update mixers set verified_only = true where id = any(${`{${verifiedOnly.join(',')}}`}::uuid[])`);
  }
  mark('write');
  return {
    candidates: candidates.length,
    mixers: created.map((m) => m.id),
    invitations: [...toppedUpRows, ...invited],
    toppedUp: toppedUpRows.length,
    phases,
  };
}

/** PGlite (embedded) rather than a PostgreSQL pool. */
function isEmbedded(db: Db): boolean {
  const client = (db as unknown as { $client?: { dumpDataDir?: unknown } }).$client;
  return typeof client?.dumpDataDir === 'function';
}

function isApp(target: FastifyInstance | Db): target is FastifyInstance {
  return typeof (target as FastifyInstance).deps === 'object' && (target as FastifyInstance).deps !== null;
}

/**
 * One formation run at `now`. Paused: does nothing at all (no new mixers, no top-ups;
 * invitations already sent still expire as usual). Another run holding the lock: returns
 * `locked`. Given the app, the new invitations are announced after the transaction commits.
 */
export async function runFormation(
  target: FastifyInstance | Db,
  now: Date = new Date(),
  /** `lock: false` only in tests, to show the unique keys alone keep concurrent runs from doubling anything. */
  opts: { lock?: boolean } = {},
): Promise<FormationRun> {
  const started = performance.now();
  const db = isApp(target) ? target.deps.database.db : target;
  const empty = { candidates: 0, mixers: [], invitations: [], toppedUp: 0, phases: {} };
  // The embedded database has no autovacuum, so its planner never learns how big these tables
  // grew and picks nested loops over thousands of rows: refresh the statistics first (~0.3 s).
  if (isEmbedded(db)) {
    await db.execute(
      sql`analyze mixers, mixer_invitations, mixer_memberships, daily_activity, profiles, "user", blocks, matches, mixer_attendance`,
    );
  }
  const result = await db.transaction(async (tx) => {
    if (opts.lock !== false) {
      const [lock] = rowsOf<{ ok: boolean }>(await tx.execute(sql`select pg_try_advisory_xact_lock(${FORMATION_LOCK_KEY}) as ok`));
      if (!lock?.ok) return { ...empty, skipped: 'locked' as const };
    }
    const settings = await loadSettings(tx);
    if (settings.paused) return { ...empty, skipped: 'paused' as const };
    return formInside(tx, now, settings);
  });
  if (isApp(target) && result.invitations.length) await announceInvitations(target, result.invitations);
  return { ...result, ms: Math.round(performance.now() - started) };
}

/** Runs the job when the app is ready and every FORMATION_INTERVAL_MS after (several instances are fine). */
export function startFormation(app: FastifyInstance, intervalMs = FORMATION_INTERVAL_MS) {
  startPeriodicJob(app, 'mixer formation', intervalMs, (now) => runFormation(app, now));
}
