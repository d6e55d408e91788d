import { type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ChatMessage } from '../../../shared/realtime/events';
import { ADMIN_MESSAGES, type AdminMixer, type AdminMixerView, type Page, type mixerInputSchema } from '../../../shared/schemas/admin';
import type { z } from 'zod';
import { ukLongWhen } from '../../lib/uk-time';
import { type Audience, AUDIENCE_MESSAGES, planSeats, type SeatPlan, seatPools } from '../../../shared/audience';
import type { SeatFill } from '../../../shared/schemas/mixers';
import type { Db } from '../../db/client';
import { AppError } from '../../http/errors';
import { audienceOf, joinedPerSide, seatFillSql, seatWaitlisted } from '../mixers/service';
import { withdrawInvitations } from '../invitations/service';
import { composeMail } from '../../infra/mail/template';
import { recordAudit } from './audit';
import { decodeCursor, encodeCursor, firstName, isUuid, micros } from './sql';
import { iso, parseJson, type Queryable, query } from '../../lib/sql';
import { textArray } from '../../db/text-array';

export type MixerInputData = z.output<typeof mixerInputSchema>;

/** A start time this close to "now" still counts as now (the form has minute precision). */
const START_GRACE_MS = 60_000;

interface MixerRow {
  id: string;
  title: string;
  topic: string;
  description: string;
  theme: AdminMixer['theme'];
  tags: string[];
  intent: AdminMixer['intent'];
  status: AdminMixer['status'];
  starts_at: string;
  ends_at: string;
  duration_minutes: number;
  max_participants: number;
  participant_count: number;
  waitlist_count: number;
  chat_messages: number;
  icebreaker: string | null;
  verified_only: boolean;
  created_by: string | null;
  created_at: string;
  sort: string;
  audience_region: string | null;
  age_min: number;
  age_max: number;
  seat_plan: SeatPlan | string;
  fill: Record<string, { joined: number; held: number; waiting: number }> | string | null;
}

const mixerColumns = sql`
  m.id, m.title, m.topic, m.description, m.theme, m.tags, m.intent, m.status,
  ${iso(sql`m.starts_at`)} as starts_at, ${iso(sql`m.ends_at`)} as ends_at,
  round(extract(epoch from (m.ends_at - m.starts_at)) / 60)::int as duration_minutes,
  m.max_participants,
  (select count(*)::int from mixer_memberships c where c.mixer_id = m.id and c.state = 'joined') as participant_count,
  (select count(*)::int from mixer_memberships c where c.mixer_id = m.id and c.state = 'waitlisted') as waitlist_count,
  (select count(*)::int from mixer_messages x where x.mixer_id = m.id and x.kind = 'member') as chat_messages,
  m.icebreaker, m.verified_only, (select name from "user" where id = m.created_by) as created_by, ${iso(sql`m.created_at`)} as created_at,
  ${micros(sql`m.starts_at`)}::text as sort,
  m.audience_region, m.age_min, m.age_max, m.seat_plan,
  (select json_object_agg(f.side, json_build_object('joined', f.joined, 'held', f.held, 'waiting', f.waiting))
     from (${seatFillSql(sql`m.id`, sql`now()`)}) f) as fill`;

function seatsOf(r: MixerRow, plan: SeatPlan): SeatFill[] {
  const fill = parseJson(r.fill, {});
  return seatPools(plan, r.max_participants).map((p) => ({
    key: p.key,
    seats: p.seats,
    joined: Number(fill[p.key]?.joined ?? 0),
    held: Number(fill[p.key]?.held ?? 0),
    waiting: Number(fill[p.key]?.waiting ?? 0),
  }));
}

const toMixer = (r: MixerRow): AdminMixer => ({
  id: r.id,
  audience: audienceOf(r),
  seats: seatsOf(r, audienceOf(r).seatPlan),
  title: r.title,
  topic: r.topic,
  description: r.description,
  theme: r.theme,
  tags: r.tags ?? [],
  intent: r.intent,
  status: r.status,
  startsAt: r.starts_at,
  endsAt: r.ends_at,
  durationMinutes: r.duration_minutes,
  maxParticipants: r.max_participants,
  participantCount: r.participant_count,
  waitlistCount: r.waitlist_count,
  chatMessages: r.chat_messages,
  icebreaker: r.icebreaker ?? '',
  verifiedOnly: Boolean(r.verified_only),
  createdBy: r.created_by,
  createdAt: r.created_at,
});

/** Upcoming and live (soonest first), past or cancelled (latest first); keyset-paginated. */
export async function listAdminMixers(
  db: Queryable,
  opts: { view: AdminMixerView; cursor?: string; limit: number },
): Promise<Page<AdminMixer>> {
  const cursor = decodeCursor(opts.cursor);
  const asc = opts.view === 'active';
  const filter: Record<AdminMixerView, SQL> = {
    active: sql`m.status in ('scheduled', 'live')`,
    past: sql`m.status = 'ended'`,
    cancelled: sql`m.status = 'cancelled'`,
  };
  const key = micros(sql`m.starts_at`);
  const after = !cursor
    ? sql`true`
    : asc
      ? sql`(${key} > ${cursor.sort}::bigint or (${key} = ${cursor.sort}::bigint and m.id > ${cursor.id}::uuid))`
      : sql`(${key} < ${cursor.sort}::bigint or (${key} = ${cursor.sort}::bigint and m.id < ${cursor.id}::uuid))`;
  const order = asc ? sql`m.starts_at asc, m.id asc` : sql`m.starts_at desc, m.id desc`;
  const rows = await query<MixerRow>(
    db,
    sql`select ${mixerColumns} from mixers m where ${filter[opts.view]} and ${after} order by ${order} limit ${opts.limit + 1}`,
  );
  const more = rows.length > opts.limit;
  const page = more ? rows.slice(0, opts.limit) : rows;
  const last = page.at(-1);
  return { items: page.map(toMixer), nextCursor: more && last ? encodeCursor(last.sort, last.id) : null };
}

async function getAdminMixer(db: Queryable, id: string): Promise<AdminMixer> {
  const [row] = await query<MixerRow>(db, sql`select ${mixerColumns} from mixers m where m.id = ${id}::uuid`);
  if (!row) throw new AppError('not_found', ADMIN_MESSAGES.mixerNotFound);
  return toMixer(row);
}

/** Tags must be active catalogue interests; returns them spelt as in the catalogue, without duplicates. */
async function catalogueTags(db: Queryable, tags: string[]): Promise<string[]> {
  if (!tags.length) return [];
  const found = await query<{ name: string; wanted: string }>(
    db,
    sql`select p.name, lower(t) as wanted from unnest(${textArray(tags)}) t
          join predefined_interests p on lower(p.name) = lower(t) and p.is_active`,
  );
  const byLower = new Map(found.map((f) => [f.wanted, f.name]));
  const out: string[] = [];
  for (const t of tags) {
    const name = byLower.get(t.toLowerCase());
    if (!name) throw new AppError('validation', ADMIN_MESSAGES.tagUnknown, { tags: ADMIN_MESSAGES.tagUnknown });
    if (!out.includes(name)) out.push(name);
  }
  return out;
}

/**
 * The audience as stored: only Dating mixers have a seat plan (a Dating mixer without one is
 * open to everyone), and a plan's seats are the mixer's capacity.
 */
function resolveAudience(input: MixerInputData): { audience: Audience; capacity: number } {
  const { audience } = input;
  if (input.intent !== 'Dating' && audience.seatPlan.length) {
    throw new AppError('validation', AUDIENCE_MESSAGES.planOnlyDating, { 'audience.seatPlan': AUDIENCE_MESSAGES.planOnlyDating });
  }
  const seatPlan: SeatPlan =
    input.intent === 'Dating' && !audience.seatPlan.length ? [{ side: 'everyone', seats: input.maxParticipants }] : audience.seatPlan;
  return { audience: { ...audience, seatPlan }, capacity: seatPlan.length ? planSeats(seatPlan) : input.maxParticipants };
}

const audienceValues = (a: Audience) => sql`${a.region}, ${a.ageMin}, ${a.ageMax}, ${JSON.stringify(a.seatPlan)}::jsonb`;

/** Creates a scheduled mixer (status follows the clock from here: the lifecycle job starts and ends it). */
export async function createMixer(app: FastifyInstance, actorId: string, input: MixerInputData, now = new Date()): Promise<AdminMixer> {
  const db = app.deps.database.db;
  const startsAt = new Date(input.startsAt);
  if (startsAt.getTime() < now.getTime() - START_GRACE_MS) {
    throw new AppError('validation', ADMIN_MESSAGES.startInPast, { startsAt: ADMIN_MESSAGES.startInPast });
  }
  const tags = await catalogueTags(db, input.tags);
  const { audience, capacity } = resolveAudience(input);
  const endsAt = new Date(startsAt.getTime() + input.durationMinutes * 60_000);
  const id = await db.transaction(async (tx) => {
    const [row] = await query<{ id: string }>(
      tx,
      sql`insert into mixers (title, topic, description, theme, tags, intent, status, starts_at, ends_at, max_participants, icebreaker, created_by,
                              audience_region, age_min, age_max, seat_plan, verified_only)
          values (${input.title}, ${input.topic}, ${input.description}, ${input.theme}, ${textArray(tags)}, ${input.intent}, 'scheduled',
                  ${startsAt.toISOString()}::timestamptz, ${endsAt.toISOString()}::timestamptz, ${capacity},
                  ${input.icebreaker || null}, ${actorId}, ${audienceValues(audience)}, ${input.verifiedOnly})
          returning id`,
    );
    await recordAudit(tx, actorId, 'mixer.create', row.id, { title: input.title, startsAt: startsAt.toISOString() });
    return row.id;
  });
  return getAdminMixer(db, id);
}

const londonTime = (iso: string) => ukLongWhen.format(new Date(iso));

interface LockedRow {
  id: string;
  title: string;
  status: string;
  starts_ms: number;
  ends_ms: number;
  joined: number;
}

async function lockMixer(tx: Queryable, id: string): Promise<LockedRow> {
  if (!isUuid(id)) throw new AppError('not_found', ADMIN_MESSAGES.mixerNotFound);
  const [row] = await query<LockedRow>(
    tx,
    sql`select id, title, status, (extract(epoch from starts_at) * 1000)::float8 as starts_ms, (extract(epoch from ends_at) * 1000)::float8 as ends_ms,
               (select count(*)::int from mixer_memberships c where c.mixer_id = mixers.id and c.state = 'joined') as joined
          from mixers where id = ${id}::uuid for update`,
  );
  if (!row) throw new AppError('not_found', ADMIN_MESSAGES.mixerNotFound);
  return row;
}

interface MemberContact {
  user_id: string;
  email: string;
  name: string | null;
  state: string;
}

const memberContacts = (tx: Queryable, mixerId: string, states: string[]) =>
  query<MemberContact>(
    tx,
    sql`select c.user_id, u.email, coalesce(nullif(btrim(p.full_name), ''), u.name) as name, c.state
          from mixer_memberships c join "user" u on u.id = c.user_id left join profiles p on p.id = c.user_id
         where c.mixer_id = ${mixerId}::uuid and c.state in (${sql.join(
           states.map((s) => sql`${s}`),
           sql`, `,
         )})`,
  );

/**
 * Edits an upcoming or live mixer. A live mixer keeps its start time; capacity never drops below
 * the members already in; a raised capacity gives seats to the waitlist in order. Members hear
 * about a new time (realtime and mail) and promoted members about their seat.
 */
export async function updateMixer(
  app: FastifyInstance,
  actorId: string,
  id: string,
  input: MixerInputData,
  now = new Date(),
): Promise<AdminMixer> {
  const db = app.deps.database.db;
  const tags = await catalogueTags(db, input.tags);
  const { audience, capacity } = resolveAudience(input);
  const outcome = await db.transaction(async (tx) => {
    const current = await lockMixer(tx, id);
    if (current.status !== 'scheduled' && current.status !== 'live') throw new AppError('conflict', ADMIN_MESSAGES.mixerNotEditable);
    let startsMs = new Date(input.startsAt).getTime();
    const timeChanged = Math.abs(startsMs - Number(current.starts_ms)) >= START_GRACE_MS;
    if (!timeChanged) startsMs = Number(current.starts_ms);
    if (timeChanged && current.status === 'live')
      throw new AppError('conflict', ADMIN_MESSAGES.mixerStarted, { startsAt: ADMIN_MESSAGES.mixerStarted });
    if (timeChanged && startsMs < now.getTime() - START_GRACE_MS) {
      throw new AppError('validation', ADMIN_MESSAGES.startInPast, { startsAt: ADMIN_MESSAGES.startInPast });
    }
    const endsMs = startsMs + input.durationMinutes * 60_000;
    if (current.status === 'live' && endsMs <= now.getTime()) {
      throw new AppError('validation', ADMIN_MESSAGES.mixerEndsInPast, { durationMinutes: ADMIN_MESSAGES.mixerEndsInPast });
    }
    if (capacity < current.joined) {
      const message = ADMIN_MESSAGES.capacityBelowJoined(current.joined);
      throw new AppError('conflict', message, { maxParticipants: message });
    }
    const seated = await joinedPerSide(tx, id);
    for (const side of audience.seatPlan) {
      const n = seated.get(side.side) ?? 0;
      if (side.seats < n) {
        const message = ADMIN_MESSAGES.capacityBelowJoined(n);
        throw new AppError('conflict', message, { 'audience.seatPlan': message });
      }
    }
    await tx.execute(
      sql`update mixers set title = ${input.title}, topic = ${input.topic}, description = ${input.description}, theme = ${input.theme},
            tags = ${textArray(tags)}, intent = ${input.intent}, max_participants = ${capacity},
            audience_region = ${audience.region}, age_min = ${audience.ageMin}, age_max = ${audience.ageMax},
            seat_plan = ${JSON.stringify(audience.seatPlan)}::jsonb,
            icebreaker = ${input.icebreaker || null}, verified_only = ${input.verifiedOnly},
            starts_at = ${new Date(startsMs).toISOString()}::timestamptz, ends_at = ${new Date(endsMs).toISOString()}::timestamptz
          where id = ${id}::uuid`,
    );
    const promoted = await seatWaitlisted(tx as unknown as Db, id, now);
    const members = timeChanged ? await memberContacts(tx, id, ['joined', 'waitlisted']) : [];
    await recordAudit(tx, actorId, 'mixer.update', id, {
      title: input.title,
      ...(timeChanged && { startsAt: new Date(startsMs).toISOString() }),
      ...(promoted.length && { promoted: promoted.length }),
    });
    return { title: input.title, timeChanged, startsIso: new Date(startsMs).toISOString(), promoted, members };
  });

  const publish = app.realtime.publish.bind(app.realtime);
  await publish(`mixer:${id}`, { type: 'mixer.updated', mixerId: id });
  for (const p of outcome.promoted) {
    await publish(`user:${p.user_id}`, { type: 'counter', key: 'mixersJoined', delta: 1 });
    await publish(`user:${p.user_id}`, {
      type: 'notice',
      title: "You're in!",
      description: `A seat opened up in "${outcome.title}" and it's yours.`,
    });
    await publish(`user:${p.user_id}`, { type: 'mixer.updated', mixerId: id });
  }
  if (outcome.timeChanged) {
    const when = londonTime(outcome.startsIso);
    for (const m of outcome.members) {
      await publish(`user:${m.user_id}`, {
        type: 'notice',
        title: 'Mixer time changed',
        description: `"${outcome.title}" now starts ${when}.`,
      });
      await publish(`user:${m.user_id}`, { type: 'mixer.updated', mixerId: id });
      await app.deps.mailer.sendMail(
        composeMail(m.email, {
          subject: `New time: ${outcome.title}`,
          greeting: `Hi ${firstName(m.name)},`,
          lines: [
            `"${outcome.title}" has moved. It now starts on ${when} (UK time).`,
            "Can't make the new time? Leave the mixer from its page so someone else gets your seat.",
          ],
          action: { label: 'Open the mixer', url: `${app.deps.config.publicUrl}/mixers/${id}` },
        }),
      );
    }
  }
  return getAdminMixer(db, id);
}

/**
 * Cancels an upcoming or live mixer: a closing line in its chat, and every joined or waitlisted
 * member is told with the reason, in realtime and by mail.
 */
export async function cancelMixer(app: FastifyInstance, actorId: string, id: string, reason: string): Promise<AdminMixer> {
  const db = app.deps.database.db;
  const outcome = await db.transaction(async (tx) => {
    const current = await lockMixer(tx, id);
    if (current.status !== 'scheduled' && current.status !== 'live') throw new AppError('conflict', ADMIN_MESSAGES.mixerNotCancellable);
    await tx.execute(sql`update mixers set status = 'cancelled' where id = ${id}::uuid`);
    const body = `This mixer was cancelled by the Fancy team. ${reason}`;
    const [line] = await query<{ id: string; created_at: string }>(
      tx,
      sql`insert into mixer_messages (mixer_id, sender_id, kind, body) values (${id}::uuid, null, 'system', ${body})
          returning id, ${iso(sql`created_at`)} as created_at`,
    );
    const members = await memberContacts(tx, id, ['joined', 'waitlisted']);
    const withdrawn = await withdrawInvitations(tx, id);
    await recordAudit(tx, actorId, 'mixer.cancel', id, {
      title: current.title,
      reason,
      membersTold: members.length,
      ...(withdrawn.length && { invitationsWithdrawn: withdrawn.length }),
    });
    return {
      current,
      members,
      message: { id: line.id, mixerId: id, kind: 'system', body, createdAt: line.created_at, sender: null } as ChatMessage,
    };
  });

  const publish = app.realtime.publish.bind(app.realtime);
  const { current, members } = outcome;
  const wasLive = current.status === 'live';
  const when = londonTime(new Date(Number(current.starts_ms)).toISOString());
  await publish(`mixer:${id}`, { type: 'mixer.message', message: outcome.message });
  await publish(`mixer:${id}`, { type: 'mixer.updated', mixerId: id });
  for (const m of members) {
    if (wasLive && m.state === 'joined') await publish(`user:${m.user_id}`, { type: 'counter', key: 'activeMixers', delta: -1 });
    await publish(`user:${m.user_id}`, {
      type: 'notice',
      title: 'Mixer cancelled',
      description: `"${current.title}" was cancelled. ${reason}`,
    });
    await publish(`user:${m.user_id}`, { type: 'mixer.updated', mixerId: id });
    await app.deps.mailer.sendMail(
      composeMail(m.email, {
        subject: `Cancelled: ${current.title}`,
        greeting: `Hi ${firstName(m.name)},`,
        lines: [
          `We're sorry — "${current.title}" (${when}, UK time) has been cancelled.`,
          `The reason: ${reason}`,
          'There are plenty of other mixers coming up. We hope to see you in one soon.',
        ],
        action: { label: 'Find another mixer', url: `${app.deps.config.publicUrl}/mixers` },
      }),
    );
  }
  return getAdminMixer(db, id);
}
