import { sql } from 'drizzle-orm';
import { regionOfCity } from '../../../shared/audience';
import { DEFAULT_FORMATION_SETTINGS, INVITATION_STATUSES, type InvitationStatus } from '../../../shared/formation';
import {
  type DemandRow,
  FORMATION_ADMIN_MESSAGES,
  type FormationDemand,
  type FormationOverview,
  type FormedMixer,
  type formationSettingsSchema,
  type newTopicTemplateSchema,
  type TopicTemplate,
  type topicTemplateSchema,
} from '../../../shared/schemas/formation-admin';
import type { MixerIntent, MixerStatus, MixerTheme } from '../../../shared/schemas/mixers';
import { PREDEFINED_INTERESTS } from '../../../shared/reference/catalog';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { AppError } from '../../http/errors';
import { type AuditRow, recordAudit, toAuditEntry } from './audit';
import { iso, parseJson, type Queryable, query } from '../../lib/sql';
import { isUuid } from './sql';

/**
 * The admin formation page (issue 14, docs/decisions/013): demand, the automatically formed
 * mixers and their fill, the job's settings and the topic templates. Every change is audited
 * with the admin as actor.
 */

/** Demand rows sent at most (the busiest first); the page filters and sorts them. */
export const DEMAND_ROWS_MAX = 400;
const FORMED_MIXERS_MAX = 50;
const RECENT_ACTIONS_MAX = 30;

interface SettingsRow {
  paused: boolean;
  group_size: number;
  min_seats: number;
  hold_hours: number;
  max_invites_per_week: number;
  lead_hours: number;
  horizon_days: number;
  updated_at: string;
  updated_by: string | null;
}

async function readSettings(db: Queryable): Promise<FormationOverview['settings']> {
  const [r] = await query<SettingsRow>(
    db,
    sql`select s.paused, s.group_size, s.min_seats, s.hold_hours, s.max_invites_per_week, s.lead_hours, s.horizon_days,
               ${iso(sql`s.updated_at`)} as updated_at, (select name from "user" where id = s.updated_by) as updated_by
          from formation_settings s where s.id = 1`,
  );
  if (!r) return { ...DEFAULT_FORMATION_SETTINGS, updatedAt: new Date(0).toISOString(), updatedBy: null };
  return {
    paused: Boolean(r.paused),
    groupSize: Number(r.group_size),
    minSeats: Number(r.min_seats),
    holdHours: Number(r.hold_hours),
    maxInvitesPerWeek: Number(r.max_invites_per_week),
    leadHours: Number(r.lead_hours),
    horizonDays: Number(r.horizon_days),
    updatedAt: r.updated_at,
    updatedBy: r.updated_by,
  };
}

interface TemplateRow {
  id: string;
  topic: string;
  title: string;
  description: string;
  theme: string;
  icebreaker: string;
  active: boolean;
  updated_at: string;
}

const toTemplate = (r: TemplateRow): TopicTemplate => ({
  id: r.id,
  topic: r.topic,
  title: r.title,
  description: r.description,
  theme: r.theme as MixerTheme,
  icebreaker: r.icebreaker,
  active: Boolean(r.active),
  updatedAt: r.updated_at,
});

const templateColumns = sql`id, topic, title, description, theme, icebreaker, active, ${iso(sql`updated_at`)} as updated_at`;

const emptyCounts = (): Record<InvitationStatus, number> =>
  Object.fromEntries(INVITATION_STATUSES.map((s) => [s, 0])) as Record<InvitationStatus, number>;

interface FormedRow {
  id: string;
  title: string;
  topic: string;
  starts_at: string;
  status: string;
  capacity: number;
  joined: number;
  invitations: Record<string, number> | string | null;
}

function toFormed(r: FormedRow): FormedMixer {
  const parsed = parseJson(r.invitations, {});
  const invitations = emptyCounts();
  for (const s of INVITATION_STATUSES) invitations[s] = Number(parsed[s] ?? 0);
  const capacity = Number(r.capacity);
  const joined = Number(r.joined);
  return {
    id: r.id,
    title: r.title,
    topic: r.topic,
    startsAt: r.starts_at,
    status: r.status as MixerStatus,
    capacity,
    joined,
    invitations,
    fillRate: capacity ? Math.min(1, joined / capacity) : 0,
  };
}

/** Settings, templates, formed mixers with totals and the recent automatic actions, for the page. */
export async function formationOverview(db: Db): Promise<FormationOverview> {
  const settings = await readSettings(db);
  const templates = (await query<TemplateRow>(db, sql`select ${templateColumns} from topic_templates order by lower(topic)`)).map(
    toTemplate,
  );
  const formedSql = (limit: number | null) => sql`
    select m.id, m.title, m.topic, ${iso(sql`m.starts_at`)} as starts_at, m.status, m.max_participants as capacity,
           (select count(*)::int from mixer_memberships c where c.mixer_id = m.id and c.state = 'joined') as joined,
           (select json_object_agg(x.status, x.n) from (select i.status, count(*)::int as n from mixer_invitations i where i.mixer_id = m.id group by i.status) x) as invitations
      from mixers m where m.origin = 'auto'
     order by m.starts_at desc, m.id
     ${limit === null ? sql`` : sql`limit ${limit}`}`;
  const mixers = (await query<FormedRow>(db, formedSql(FORMED_MIXERS_MAX))).map(toFormed);
  const [t] = await query<{ mixers: number; capacity: number; joined: number; invitations: Record<string, number> | string | null }>(
    db,
    sql`select count(*)::int as mixers, coalesce(sum(m.max_participants), 0)::int as capacity,
               (select count(*)::int from mixer_memberships c join mixers x on x.id = c.mixer_id where x.origin = 'auto' and c.state = 'joined') as joined,
               (select json_object_agg(y.status, y.n) from (select i.status, count(*)::int as n from mixer_invitations i join mixers x on x.id = i.mixer_id
                                                              where x.origin = 'auto' group by i.status) y) as invitations
          from mixers m where m.origin = 'auto'`,
  );
  const totalsFormed = toFormed({
    id: '',
    title: '',
    topic: '',
    starts_at: '',
    status: 'scheduled',
    capacity: t?.capacity ?? 0,
    joined: t?.joined ?? 0,
    invitations: t?.invitations ?? null,
  });
  const recent = await query<AuditRow>(
    db,
    sql`select a.id, a.action, a.target, a.details, ${iso(sql`a.created_at`)} as created_at, a.actor_id, u.name as actor_name, u.email as actor_email
          from audit_log a left join "user" u on u.id = a.actor_id
         where a.action like 'formation.%' or a.action like 'invitation.%'
         order by a.created_at desc, a.id desc
         limit ${RECENT_ACTIONS_MAX}`,
  );
  const withTemplate = new Set(templates.map((tp) => tp.topic));
  return {
    settings,
    templates,
    topicsWithoutTemplate: PREDEFINED_INTERESTS.map((i) => i.name).filter((n) => !withTemplate.has(n)),
    mixers,
    totals: {
      mixers: Number(t?.mixers ?? 0),
      capacity: totalsFormed.capacity,
      joined: totalsFormed.joined,
      invitations: totalsFormed.invitations,
      fillRate: totalsFormed.fillRate,
    },
    recent: recent.map(toAuditEntry),
  };
}

/**
 * Members with availability (a completed profile, not suspended), per topic × region × intent:
 * asks ("I'd join one about …") and interests counted in separate columns, never added up. Cities
 * are grouped in SQL and mapped to their regions here (the built-in city list).
 */
export async function formationDemand(db: Db, filter: { region?: string; intent?: MixerIntent }): Promise<FormationDemand> {
  const intent = filter.intent ? sql`and li.intent = ${filter.intent}` : sql``;
  const [{ n }] = await query<{ n: number }>(
    db,
    sql`select count(*)::int as n from profiles p join "user" u on u.id = p.id
         where cardinality(p.availability) > 0 and p.onboarding_completed and u.banned is not true`,
  );
  const rows = await query<{ topic: string; city: string | null; intent: string; asks: number; interests: number }>(
    db,
    sql`select t.topic, p.city_region as city, li.intent,
               count(*) filter (where t.kind = 'ask')::int as asks, count(*) filter (where t.kind = 'interest')::int as interests
          from profiles p join "user" u on u.id = p.id
          cross join lateral (select a as topic, 'ask' as kind from unnest(p.topic_asks) a
                              union select i, 'interest' from unnest(p.interests) i) t
          cross join lateral unnest(p.looking_for) li(intent)
         where cardinality(p.availability) > 0 and p.onboarding_completed and u.banned is not true ${intent}
         group by t.topic, p.city_region, li.intent`,
  );
  const merged = new Map<string, DemandRow>();
  for (const r of rows) {
    const region = regionOfCity(r.city);
    if (filter.region && region !== filter.region) continue;
    const key = `${r.topic}\u0000${region ?? ''}\u0000${r.intent}`;
    const row = merged.get(key) ?? { topic: r.topic, region, intent: r.intent as MixerIntent, asks: 0, interests: 0 };
    row.asks += Number(r.asks);
    row.interests += Number(r.interests);
    merged.set(key, row);
  }
  const all = [...merged.values()].sort(
    (a, b) =>
      b.asks - a.asks || b.interests - a.interests || a.topic.localeCompare(b.topic) || (a.region ?? '').localeCompare(b.region ?? ''),
  );
  return { membersWithAvailability: Number(n), rows: all.slice(0, DEMAND_ROWS_MAX), truncated: all.length > DEMAND_ROWS_MAX };
}

const SETTING_COLUMNS = {
  groupSize: 'group_size',
  minSeats: 'min_seats',
  holdHours: 'hold_hours',
  maxInvitesPerWeek: 'max_invites_per_week',
  leadHours: 'lead_hours',
  horizonDays: 'horizon_days',
} as const;

/** Saves the settings (validated by `formationSettingsSchema`); audited with what changed. */
export async function updateFormationSettings(
  db: Db,
  actorId: string,
  input: z.output<typeof formationSettingsSchema>,
): Promise<FormationOverview['settings']> {
  await db.transaction(async (tx) => {
    const before = await readSettings(tx);
    const changed: Record<string, { from: unknown; to: unknown }> = {};
    for (const k of ['paused', ...Object.keys(SETTING_COLUMNS)] as (keyof typeof input)[]) {
      if (before[k] !== input[k]) changed[k] = { from: before[k], to: input[k] };
    }
    await tx.execute(sql`
      insert into formation_settings (id, paused, group_size, min_seats, hold_hours, max_invites_per_week, lead_hours, horizon_days, updated_at, updated_by)
      values (1, ${input.paused}, ${input.groupSize}, ${input.minSeats}, ${input.holdHours}, ${input.maxInvitesPerWeek}, ${input.leadHours},
              ${input.horizonDays}, now(), ${actorId})
      on conflict (id) do update set paused = excluded.paused, group_size = excluded.group_size, min_seats = excluded.min_seats,
        hold_hours = excluded.hold_hours, max_invites_per_week = excluded.max_invites_per_week, lead_hours = excluded.lead_hours,
        horizon_days = excluded.horizon_days, updated_at = excluded.updated_at, updated_by = excluded.updated_by`);
    if (!Object.keys(changed).length) return;
    const action =
      'paused' in changed && Object.keys(changed).length === 1
        ? input.paused
          ? 'formation.paused'
          : 'formation.resumed'
        : 'formation.settings';
    await recordAudit(tx, actorId, action, 'formation_settings', changed);
  });
  return readSettings(db);
}

/** Edits a topic template (validated by `topicTemplateSchema`); audited. */
export async function updateTopicTemplate(
  db: Db,
  actorId: string,
  id: string,
  input: z.output<typeof topicTemplateSchema>,
): Promise<TopicTemplate> {
  if (!isUuid(id)) throw new AppError('not_found', FORMATION_ADMIN_MESSAGES.templateNotFound);
  return db.transaction(async (tx) => {
    const [row] = await query<TemplateRow>(
      tx,
      sql`update topic_templates set title = ${input.title}, description = ${input.description}, theme = ${input.theme},
                 icebreaker = ${input.icebreaker}, active = ${input.active}, updated_at = now(), updated_by = ${actorId}
           where id = ${id}::uuid returning ${templateColumns}`,
    );
    if (!row) throw new AppError('not_found', FORMATION_ADMIN_MESSAGES.templateNotFound);
    await recordAudit(tx, actorId, 'formation.template', id, { topic: row.topic, title: input.title, active: input.active });
    return toTemplate(row);
  });
}

/** Adds a template for a predefined interest that has none; audited. */
export async function createTopicTemplate(db: Db, actorId: string, input: z.output<typeof newTopicTemplateSchema>): Promise<TopicTemplate> {
  return db.transaction(async (tx) => {
    const [row] = await query<TemplateRow>(
      tx,
      sql`insert into topic_templates (topic, title, description, theme, icebreaker, active, updated_by)
          values (${input.topic}, ${input.title}, ${input.description}, ${input.theme}, ${input.icebreaker}, ${input.active}, ${actorId})
          on conflict (topic) do nothing
          returning ${templateColumns}`,
    );
    if (!row) throw new AppError('conflict', FORMATION_ADMIN_MESSAGES.topicTaken, { topic: FORMATION_ADMIN_MESSAGES.topicTaken });
    await recordAudit(tx, actorId, 'formation.template.create', row.id, { topic: row.topic, title: row.title });
    return toTemplate(row);
  });
}
