/**
 * The formation simulation (issue 14, docs/decisions/012): 10,000 synthetic members across
 * the built-in UK cities, the formation job run over two simulated weeks, and the figures the
 * issue asks for, each beside its goal.
 *
 * Population spreads (and where they come from; where it is our assumption, it says so):
 *
 * - City: weighted by rough 2021 Census populations of each place (ONS for England & Wales,
 *   NRS for Scotland, NISRA for Northern Ireland; built-up area or local authority, rounded).
 *   "London" stands for the rest of Greater London beside the five named districts.
 * - Age (18+): ONS mid-year estimates of the UK adult population, skewed young as dating and
 *   social apps are (Ofcom, Online Nation 2023: dating-app use is highest at 18–34). Bands:
 *   18–24 20 %, 25–34 33 %, 35–44 22 %, 45–54 14 %, 55–64 8 %, 65+ 3 % (the skew is our assumption).
 * - Gender identity: ONS Census 2021 (England & Wales) found 0.5 % whose gender identity differs
 *   from their sex registered at birth (trans women 0.1 %, trans men 0.1 %, non-binary 0.06 %).
 *   We assume LGBTQ+ people are over-represented on a product like this (about 3×): Woman 48.5 %,
 *   Man 48.5 %, Non-binary 1 %, Trans woman 0.5 %, Trans man 0.5 %, Genderqueer/Genderfluid/
 *   Agender/Questioning 1 % together.
 * - Sexual orientation: ONS Census 2021 (England & Wales, 16+): straight 89.4 %, gay or lesbian
 *   1.5 %, bisexual 1.3 %, pansexual 0.28 %, asexual 0.06 %, queer 0.02 %, not answered 7.5 %;
 *   16–24-year-olds: bisexual 3.8 %. For a younger app audience we assume: Straight 84 %, Gay
 *   (men) / Lesbian (women) 4 %, Bisexual 6 %, Pansexual 1.5 %, Queer 1 %, Asexual 0.5 %,
 *   Questioning 1 %, Prefer not to say 2 %.
 * - Intent (looking for; several allowed): Dating 65 %, Friends 45 %, Casual 20 %, everyone at
 *   least one. An assumption (no public source for this product).
 * - Interests: 3–10 each from the predefined list; popularity falls off as 1/rank^0.8 over a
 *   hand-ordered list (everyday interests such as coffee, live music, hiking, reading first), and
 *   60 % of a member's picks come from one or two favourite categories. 30 % ask for 1–3 of their
 *   topics. Assumptions.
 * - Availability: everyone sets some (the metric counts members with availability): weekday
 *   evenings 55 %, weekend daytime 40 %, weekend evenings 30 %, plus 0–3 single slots; members
 *   with nothing picked get two random slots. Assumption, after the presets' order in the grid.
 * - Activity: each member was active on a random day of the last week and, each simulated day,
 *   is active again with probability 0.6. Blocks: 500 random pairs.
 * - Responses to invitations (simulated): 70 % accept, 15 % decline, 15 % ignore (the invitation
 *   expires). Runs: every 6 simulated hours for 14 days; expired invitations are released
 *   before each run, and mixers move along with the real lifecycle job.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { type Database, openDatabase } from '../src/server/db/client';
import { dailyActivity, profiles, user } from '../src/server/db/schema';
import { seedReferenceData } from '../src/server/db/seed/reference';
import { type SlotKey, AVAILABILITY_PRESETS, SLOT_KEYS } from '../src/shared/availability';
import { DEFAULT_FORMATION_SETTINGS } from '../src/shared/formation';
import { INTEREST_CATEGORIES, PREDEFINED_INTERESTS } from '../src/shared/reference/catalog';
import { UK_CITIES } from '../src/shared/reference/uk-cities';
import { advanceMixers } from '../src/server/modules/mixers/lifecycle';
import { runFormation } from '../src/server/modules/formation/job';
import { rowsOf } from '../src/server/lib/sql';

export const SIM_MEMBERS = Number(process.env.SIM_MEMBERS ?? 10_000);
const SIM_DAYS = Number(process.env.SIM_DAYS ?? 14);
const STEP_HOURS = 6;
/** Wednesday 25 November 2026, 09:00 UTC. */
const START = Date.parse('2026-11-25T09:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Rough 2021 Census populations (thousands) of each place in the built-in list. */
const POPULATION: Record<string, number> = {
  Aberdeen: 200,
  Aberystwyth: 15,
  Armagh: 15,
  Ballymena: 30,
  Bath: 95,
  Belfast: 345,
  Birmingham: 1140,
  Bournemouth: 200,
  Bradford: 550,
  Brecon: 8,
  Brighton: 280,
  Bristol: 470,
  Brixton: 80,
  Cambridge: 145,
  Camden: 210,
  Canterbury: 55,
  Cardiff: 360,
  Carlisle: 75,
  Carmarthen: 15,
  Chelmsford: 110,
  Chester: 90,
  Coleraine: 25,
  Coventry: 345,
  Derby: 260,
  'Derry~Londonderry': 85,
  Dundee: 150,
  Dunfermline: 55,
  Durham: 50,
  Edinburgh: 510,
  Enniskillen: 14,
  Exeter: 130,
  Glasgow: 620,
  Gloucester: 130,
  Hackney: 260,
  Hull: 270,
  Inverness: 48,
  Ipswich: 140,
  Islington: 215,
  Lancaster: 50,
  Leeds: 810,
  Leicester: 370,
  Lincoln: 100,
  Lisburn: 50,
  Liverpool: 490,
  Llandudno: 20,
  London: 7500,
  Manchester: 550,
  Middlesbrough: 145,
  'Milton Keynes': 290,
  'Newcastle upon Tyne': 300,
  Newport: 160,
  Newry: 30,
  Northampton: 220,
  Norwich: 145,
  Nottingham: 325,
  Omagh: 20,
  Oxford: 160,
  Peckham: 70,
  Perth: 47,
  Peterborough: 215,
  Plymouth: 265,
  Portsmouth: 210,
  Preston: 150,
  Reading: 175,
  Salford: 270,
  Sheffield: 555,
  Southampton: 250,
  'St Albans': 150,
  'St Andrews': 17,
  'St Davids': 2,
  Stirling: 38,
  'Stoke-on-Trent': 260,
  Sunderland: 275,
  Swansea: 240,
  Truro: 21,
  Winchester: 45,
  Wolverhampton: 265,
  Worcester: 105,
  Wrexham: 45,
  York: 200,
};

/** Everyday interests first; the rest follow in catalogue order. */
const POPULAR = [
  'Coffee',
  'Live music',
  'Hiking',
  'Reading',
  'Running',
  'Board games',
  'Pub quizzes',
  'Photography',
  'Yoga',
  'Festivals',
  'Brunch',
  'Sunday roasts',
  'Craft beer',
  'Wine tasting',
  'Video games',
  'Indie films',
  'Stand-up comedy',
  'Baking',
  'Gardening',
  'Dog walking',
  'Museums',
  'Theatre',
  'City breaks',
  'Cocktails',
  'Street food',
  'Podcasts',
  'Book club',
  'Camping',
  'Climbing',
  'Bouldering',
  'Cycling',
  'Wild swimming',
  'Parkrun',
  'Karaoke',
  'Musicals',
];

/** A small, seeded PRNG (mulberry32): the same population every run. */
export function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function weighted<T>(random: () => number, items: readonly (readonly [T, number])[]): T {
  const total = items.reduce((n, [, w]) => n + w, 0);
  let r = random() * total;
  for (const [item, w] of items) {
    r -= w;
    if (r <= 0) return item;
  }
  return items[items.length - 1][0];
}

interface SimMember {
  id: string;
  dob: string;
  city: string;
  genders: string[];
  orientations: string[];
  lookingFor: string[];
  interests: string[];
  asks: string[];
  availability: SlotKey[];
  lastActiveDay: string;
}

const day = (t: number) => new Date(t).toISOString().slice(0, 10);

/** The synthetic population (see the header for the spreads). */
export function population(count: number, seed = 14): SimMember[] {
  const random = rng(seed);
  const cities = UK_CITIES.map((c) => [c.name, POPULATION[c.name] ?? 50] as const);
  const ageBands: [[number, number], number][] = [
    [[18, 24], 20],
    [[25, 34], 33],
    [[35, 44], 22],
    [[45, 54], 14],
    [[55, 64], 8],
    [[65, 80], 3],
  ];
  const genders = [
    ['Woman', 48.5],
    ['Man', 48.5],
    ['Non-binary', 1],
    ['Trans woman', 0.5],
    ['Trans man', 0.5],
    ['Genderqueer', 0.3],
    ['Genderfluid', 0.3],
    ['Agender', 0.2],
    ['Questioning', 0.2],
  ] as const;
  const orientations = [
    ['Straight', 84],
    ['Gay', 4],
    ['Bisexual', 6],
    ['Pansexual', 1.5],
    ['Queer', 1],
    ['Asexual', 0.5],
    ['Questioning', 1],
    ['Prefer not to say', 2],
  ] as const;
  const order = [...POPULAR, ...PREDEFINED_INTERESTS.map((i) => i.name).filter((n) => !POPULAR.includes(n))];
  const popularity = order.map((name, rank) => [name, 1 / (rank + 1) ** 0.8] as const);
  const byCategory = new Map(
    INTEREST_CATEGORIES.map((c) => [c, popularity.filter(([n]) => PREDEFINED_INTERESTS.find((i) => i.name === n)?.category === c)]),
  );
  const members: SimMember[] = [];
  for (let i = 0; i < count; i++) {
    const [lo, hi] = weighted(random, ageBands);
    const age = lo + Math.floor(random() * (hi - lo + 1));
    const birthYear = 2026 - age - 1;
    const dob = `${birthYear}-${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}`;
    const gender = weighted(random, genders);
    let orientation: string = weighted(random, orientations);
    if (orientation === 'Gay' && (gender === 'Woman' || gender === 'Trans woman')) orientation = 'Lesbian';
    const lookingFor = (['Dating', 'Friends', 'Casual'] as const).filter((_, k) => random() < [0.65, 0.45, 0.2][k]);
    if (!lookingFor.length) lookingFor.push(random() < 0.6 ? 'Dating' : 'Friends');
    const favourites = [INTEREST_CATEGORIES[Math.floor(random() * INTEREST_CATEGORIES.length)]];
    if (random() < 0.5) favourites.push(INTEREST_CATEGORIES[Math.floor(random() * INTEREST_CATEGORIES.length)]);
    const want = 3 + Math.floor(random() * 8);
    const interests = new Set<string>();
    for (let guard = 0; interests.size < want && guard < 100; guard++) {
      const pool = random() < 0.6 ? byCategory.get(favourites[Math.floor(random() * favourites.length)])! : popularity;
      interests.add(weighted(random, pool));
    }
    const list = [...interests];
    const asks = random() < 0.3 ? list.slice(0, 1 + Math.floor(random() * 3)) : [];
    const slots = new Set<SlotKey>();
    for (const [preset, p] of [
      [AVAILABILITY_PRESETS[0], 0.55],
      [AVAILABILITY_PRESETS[1], 0.4],
      [AVAILABILITY_PRESETS[2], 0.3],
    ] as const) {
      if (random() < p) for (const s of preset.slots) slots.add(s);
    }
    const extra = Math.floor(random() * 4) + (slots.size ? 0 : 2);
    for (let k = 0; k < extra; k++) slots.add(SLOT_KEYS[Math.floor(random() * SLOT_KEYS.length)]);
    members.push({
      id: randomUUID().replace(/-/g, ''),
      dob,
      city: weighted(random, cities),
      genders: [gender],
      orientations: [orientation],
      lookingFor,
      interests: list,
      asks,
      availability: [...slots],
      lastActiveDay: day(START - Math.floor(random() * 7) * DAY),
    });
  }
  return members;
}

async function insertChunks<T>(items: T[], size: number, insert: (part: T[]) => Promise<unknown>) {
  for (let i = 0; i < items.length; i += size) await insert(items.slice(i, i + size));
}

/** Bulk insert: users, profiles, one activity day each, and some blocks. */
export async function seedPopulation(database: Database, members: SimMember[], seed = 7): Promise<void> {
  const { db } = database;
  await insertChunks(members, 1000, (part) =>
    db.insert(user).values(
      part.map((m) => ({
        id: m.id,
        name: `Sim ${m.id.slice(0, 6)}`,
        email: `${m.id}@sim.example.com`,
        emailVerified: true,
        onboardingComplete: true,
      })),
    ),
  );
  await insertChunks(members, 1000, (part) =>
    db.insert(profiles).values(
      part.map((m) => ({
        id: m.id,
        fullName: `Sim ${m.id.slice(0, 6)}`,
        onboardingCompleted: true,
        onboardingStep: 10,
        dob: m.dob,
        cityRegion: m.city,
        countryCode: 'GB',
        tz: 'Europe/London',
        genderIdentities: m.genders,
        sexualOrientations: m.orientations,
        lookingFor: m.lookingFor,
        interests: m.interests,
        topicAsks: m.asks,
        availability: m.availability,
      })),
    ),
  );
  await insertChunks(members, 2000, (part) => db.insert(dailyActivity).values(part.map((m) => ({ userId: m.id, day: m.lastActiveDay }))));
  const random = rng(seed);
  const pairs = new Set<string>();
  for (let k = 0; k < 500; k++) {
    const a = members[Math.floor(random() * members.length)].id;
    const b = members[Math.floor(random() * members.length)].id;
    if (a !== b) pairs.add(`${a}|${b}`);
  }
  await db.execute(
    sql`insert into blocks (blocker_id, blocked_id) values ${sql.join(
      [...pairs].map((p) => {
        const [a, b] = p.split('|');
        return sql`(${a}, ${b})`;
      }),
      sql`, `,
    )} on conflict do nothing`,
  );
}

export interface SimulationResult {
  database: 'PGlite' | 'PostgreSQL';
  members: number;
  withAvailability: number;
  invitedWithin7Days: number;
  mixers: number;
  /** Formed mixers that are online (members a region could not place). */
  onlineMixers: number;
  datingPlans: number;
  balancedPlans: number;
  meanGroupSize: number;
  meanSharedInterests: number;
  invitations: number;
  resolved: number;
  declinedOrExpired: number;
  accepted: number;
  maxInvitesIn7Days: number;
  overlapping: number;
  firstRunMs: number;
  maxRunMs: number;
  medianRunMs: number;
  runs: number;
  seedMs: number;
  /** Where the slowest run spent its time (ms per phase). */
  slowestPhases: Record<string, number>;
}

const num = (v: unknown) => Number(v ?? 0);

/** Seeds the population into `database`, runs two simulated weeks, and measures. */
export async function simulateOn(database: Database, label: SimulationResult['database'], count = SIM_MEMBERS): Promise<SimulationResult> {
  const { db } = database;
  const seedStart = performance.now();
  await seedReferenceData(db);
  const members = population(count);
  await seedPopulation(database, members);
  const seedMs = Math.round(performance.now() - seedStart);
  const random = rng(99);
  const times: number[] = [];
  let slowestPhases: Record<string, number> = {};
  const noPublish = async () => {};
  let lastDay = '';
  /** Invitations already answered (or ignored) by the simulated member. */
  const seen = new Set<string>();
  for (let t = START; t <= START + SIM_DAYS * DAY; t += STEP_HOURS * HOUR) {
    const now = new Date(t);
    const today = day(t);
    if (today !== lastDay) {
      lastDay = today;
      await db.execute(sql`insert into daily_activity (user_id, day)
        select id, ${today}::date from "user" where random() < 0.6 on conflict do nothing`);
    }
    // Members answer invitations sent since the last run; the unanswered expire at their time.
    const pending = rowsOf<{ id: string; mixer_id: string; user_id: string; side: string }>(
      await db.execute(sql`select id, mixer_id, user_id, side from mixer_invitations
                            where status = 'pending' and created_at < ${now.toISOString()}::timestamptz`),
    ).filter((inv) => !seen.has(inv.id));
    const accept: typeof pending = [];
    const decline: string[] = [];
    for (const inv of pending) {
      seen.add(inv.id);
      const r = random();
      if (r < 0.7) accept.push(inv);
      else if (r < 0.85) decline.push(inv.id);
      // else: ignored, expires.
    }
    for (let i = 0; i < accept.length; i += 1000) {
      const part = accept.slice(i, i + 1000);
      await db.execute(sql`update mixer_invitations set status = 'accepted', responded_at = ${now.toISOString()}::timestamptz
                            where id in (${sql.join(
                              part.map((p) => sql`${p.id}::uuid`),
                              sql`, `,
                            )}) and status = 'pending'`);
      await db.execute(sql`insert into mixer_memberships (mixer_id, user_id, state, side, joined_at)
        values ${sql.join(
          part.map((p) => sql`(${p.mixer_id}::uuid, ${p.user_id}, 'joined', ${p.side}, ${now.toISOString()}::timestamptz)`),
          sql`, `,
        )} on conflict do nothing`);
    }
    for (let i = 0; i < decline.length; i += 1000) {
      const part = decline.slice(i, i + 1000);
      await db.execute(sql`update mixer_invitations set status = 'declined', responded_at = ${now.toISOString()}::timestamptz
                            where id in (${sql.join(
                              part.map((p) => sql`${p}::uuid`),
                              sql`, `,
                            )}) and status = 'pending'`);
    }
    await db.execute(
      sql`update mixer_invitations set status = 'expired' where status = 'pending' and expires_at <= ${now.toISOString()}::timestamptz`,
    );
    await advanceMixers(db, now, noPublish);
    const run = await runFormation(db, now);
    if (process.env.SIM_VERBOSE)
      console.log(now.toISOString(), run.ms, JSON.stringify(run.phases), run.mixers.length, run.invitations.length);
    if (!times.length || run.ms > Math.max(...times)) slowestPhases = run.phases;
    times.push(run.ms);
  }
  return {
    ...(await measure(database, label, count)),
    firstRunMs: times[0],
    maxRunMs: Math.max(...times),
    medianRunMs: median(times),
    runs: times.length,
    seedMs,
    slowestPhases,
  };
}

function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function measure(
  database: Database,
  label: SimulationResult['database'],
  count: number,
): Promise<Omit<SimulationResult, 'firstRunMs' | 'maxRunMs' | 'medianRunMs' | 'runs' | 'seedMs' | 'slowestPhases'>> {
  const { db } = database;
  const one = async (q: ReturnType<typeof sql>) => rowsOf<Record<string, unknown>>(await db.execute(q))[0] ?? {};
  const withAvailability = num((await one(sql`select count(*) as n from profiles where cardinality(availability) > 0`)).n);
  const invitedWithin7Days = num(
    (
      await one(sql`select count(distinct i.user_id) as n from mixer_invitations i join profiles p on p.id = i.user_id
                     where cardinality(p.availability) > 0 and i.created_at < ${new Date(START + 7 * DAY).toISOString()}::timestamptz`)
    ).n,
  );
  const mixers = num((await one(sql`select count(*) as n from mixers where origin = 'auto'`)).n);
  const onlineMixers = num((await one(sql`select count(*) as n from mixers where origin = 'auto' and audience_region is null`)).n);
  // Seat balance of Dating plans as formed: invitations sent with the mixer, per side.
  const plans = rowsOf<{ id: string; seat_plan: { side: string }[] | string; sides: Record<string, number> | string | null }>(
    await db.execute(sql`
      select m.id, m.seat_plan,
             (select json_object_agg(s.side, s.n) from (select i.side, count(*) as n from mixer_invitations i
                where i.mixer_id = m.id and i.created_at = m.created_at group by i.side) s) as sides
        from mixers m where m.origin = 'auto' and m.intent = 'Dating' and jsonb_array_length(m.seat_plan) > 1`),
  );
  let balancedPlans = 0;
  for (const p of plans) {
    const plan = typeof p.seat_plan === 'string' ? (JSON.parse(p.seat_plan) as { side: string }[]) : p.seat_plan;
    const sides = (typeof p.sides === 'string' ? JSON.parse(p.sides) : (p.sides ?? {})) as Record<string, number>;
    const counts = plan.map((s) => Number(sides[s.side] ?? 0));
    if (Math.max(...counts) - Math.min(...counts) <= 1) balancedPlans++;
  }
  const groups = await one(sql`
    select avg(g.size) as size, avg(g.shared) as shared from (
      select m.id,
             (select count(*) from mixer_invitations i where i.mixer_id = m.id and i.created_at = m.created_at) as size,
             (select count(*) from (select x.interest from mixer_invitations i join profiles p on p.id = i.user_id
                                     cross join lateral unnest(p.interests) as x(interest)
                                     where i.mixer_id = m.id and i.created_at = m.created_at
                                     group by x.interest having count(*) >= 2) s) as shared
        from mixers m where m.origin = 'auto') g`);
  const statuses = await one(sql`
    select count(*) as total, count(*) filter (where status <> 'pending') as resolved,
           count(*) filter (where status in ('declined', 'expired')) as lost, count(*) filter (where status = 'accepted') as accepted
      from mixer_invitations`);
  const cap = await one(sql`
    select coalesce(max(c), 0) as n from (
      select a.id, count(*) as c from mixer_invitations a join mixer_invitations b
          on b.user_id = a.user_id and b.created_at >= a.created_at and b.created_at < a.created_at + interval '7 days'
       group by a.id) x`);
  const overlapping = await one(sql`
    select count(*) as n from mixer_invitations a join mixers ma on ma.id = a.mixer_id
      join mixer_invitations b on b.user_id = a.user_id and b.id > a.id join mixers mb on mb.id = b.mixer_id
     where a.status in ('pending', 'accepted') and b.status in ('pending', 'accepted')
       and ma.starts_at < mb.ends_at and mb.starts_at < ma.ends_at`);
  return {
    database: label,
    members: count,
    withAvailability,
    invitedWithin7Days,
    mixers,
    onlineMixers,
    datingPlans: plans.length,
    balancedPlans,
    meanGroupSize: Math.round(num(groups.size) * 10) / 10,
    meanSharedInterests: Math.round(num(groups.shared) * 10) / 10,
    invitations: num(statuses.total),
    resolved: num(statuses.resolved),
    declinedOrExpired: num(statuses.lost),
    accepted: num(statuses.accepted),
    maxInvitesIn7Days: num(cap.n),
    overlapping: num(overlapping.n),
  };
}

export const GOALS = { invitedShare: 0.8, runMs: 5000, sharedInterests: 2 } as const;

const pct = (a: number, b: number) => (b ? `${((a / b) * 100).toFixed(1)} %` : '—');
const mark = (ok: boolean) => (ok ? '✓' : '✗');

/** One row per figure: the figure, its goal, and a pass/fail mark. */
export function report(r: SimulationResult) {
  const share = r.withAvailability ? r.invitedWithin7Days / r.withAvailability : 0;
  return [
    {
      figure: 'Members with availability invited within 7 days',
      value: `${pct(r.invitedWithin7Days, r.withAvailability)} (${r.invitedWithin7Days} of ${r.withAvailability})`,
      goal: '≥ 80 %',
      ok: mark(share >= GOALS.invitedShare),
    },
    {
      figure: 'Dating plans balanced (sides within one seat)',
      value: `${r.balancedPlans} of ${r.datingPlans}`,
      goal: 'every plan',
      ok: mark(r.balancedPlans === r.datingPlans),
    },
    {
      figure: 'Mean shared interests per mixer',
      value: String(r.meanSharedInterests),
      goal: `≥ ${GOALS.sharedInterests} (our target)`,
      ok: mark(r.meanSharedInterests >= GOALS.sharedInterests),
    },
    {
      figure: 'Invitations declined or expired',
      value: `${pct(r.declinedOrExpired, r.resolved)} (${r.declinedOrExpired} of ${r.resolved} answered or lapsed)`,
      goal: 'report only (simulated 15 % decline + 15 % ignore)',
      ok: '·',
    },
    {
      figure: 'Most invitations to one member in 7 days',
      value: String(r.maxInvitesIn7Days),
      goal: `≤ ${DEFAULT_FORMATION_SETTINGS.maxInvitesPerWeek}`,
      ok: mark(r.maxInvitesIn7Days <= DEFAULT_FORMATION_SETTINGS.maxInvitesPerWeek),
    },
    { figure: 'Overlapping invitations held by one member', value: String(r.overlapping), goal: '0', ok: mark(r.overlapping === 0) },
    {
      figure: `Job run time, first run (${r.members.toLocaleString('en-GB')} members)`,
      value: `${r.firstRunMs} ms`,
      goal: `≤ ${GOALS.runMs} ms`,
      ok: mark(r.firstRunMs <= GOALS.runMs),
    },
    {
      figure: `Job run time, slowest of ${r.runs} runs (median ${r.medianRunMs} ms)`,
      value: `${r.maxRunMs} ms`,
      goal: `≤ ${GOALS.runMs} ms`,
      ok: mark(r.maxRunMs <= GOALS.runMs),
    },
  ];
}

/** Extra context printed under the table. */
export function summary(r: SimulationResult): string {
  const phases = Object.entries(r.slowestPhases)
    .map(([k, v]) => `${k} ${v} ms`)
    .join(', ');
  return `${r.database}: ${r.mixers} mixers formed (${r.onlineMixers} of them online; mean ${r.meanGroupSize} invited at formation), ${r.invitations} invitations, ${r.accepted} accepted; seeding took ${r.seedMs} ms; the slowest run: ${phases}.`;
}

/** A fresh database: in-memory PGlite, or a new database on the PostgreSQL server at `serverUrl` (dropped after). */
export async function withSimDatabase<T>(serverUrl: string | undefined, run: (database: Database) => Promise<T>): Promise<T> {
  if (!serverUrl) {
    const database = await openDatabase({ dataDir: 'memory://' });
    try {
      return await run(database);
    } finally {
      await database.close();
    }
  }
  const { default: pg } = await import('pg');
  const name = `fancy_simulate_${Date.now()}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  await admin(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString() });
  try {
    return await run(database);
  } finally {
    await database.close();
    await admin(`drop database if exists ${name} with (force)`);
  }
}

/** `npm run bench`'s row: the simulation on PGlite and, with BENCH_DATABASE_URL, on PostgreSQL. */
export async function benchSimulate(): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  const targets: [SimulationResult['database'], string | undefined][] = [['PGlite', undefined]];
  if (process.env.BENCH_DATABASE_URL) targets.push(['PostgreSQL', process.env.BENCH_DATABASE_URL]);
  for (const [label, url] of targets) {
    const result = await withSimDatabase(url, (database) => simulateOn(database, label));
    for (const row of report(result)) rows.push({ database: label, ...row });
  }
  return rows;
}
