import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { type Evidence, type QueueGroup, type QueueReport, TARGET_HOURS, isOverdue, queueOrder } from '../../../shared/schemas/moderation';
import { iso, parseJson, query } from '../../lib/sql';
import { identityChangesJson, toIdentityChanges } from './identity-changes';

/** Groups (reported members) shown per page of the queue. */
const QUEUE_GROUPS = 50;

interface Row {
  id: string;
  reason: string;
  details: string;
  target_kind: QueueReport['kind'];
  severity: number;
  created_at: string;
  reporter_id: string | null;
  reporter_name: string | null;
  reported_id: string | null;
  reported_name: string | null;
  reported_email: string | null;
  reported_role: string | null;
  mixer_id: string | null;
  mixer_title: string | null;
  match_id: string | null;
  line_hidden: boolean;
  evidence: Evidence | string | null;
  photo_key: string | null;
  group_key: string;
  identity: unknown;
}

const dn = (alias: string) => sql.raw(`coalesce(nullif(btrim(${alias}p.full_name), ''), ${alias}u.name)`);

/**
 * The moderation queue (issue 30): open reports grouped per reported member, most severe first,
 * then the longest waiting; each with its frozen evidence (the photo copy as a signed URL), its
 * target and whether it is overdue, and the member's earlier reports and actions.
 */
export async function moderationQueue(app: FastifyInstance, now = new Date()): Promise<{ groups: QueueGroup[] }> {
  const db = app.deps.database.db;
  const rows = await query<Row>(
    db,
    sql`with open as (
          select r.*, coalesce(r.reported_id, 'deleted:' || r.id::text) as group_key from reports r where r.status = 'open'
        ),
        groups as (
          select group_key, min(severity) as sev, min(created_at) as oldest from open group by group_key
          order by min(severity), min(created_at) limit ${QUEUE_GROUPS}
        )
        select o.id, o.reason, o.details, o.target_kind, o.severity, ${iso(sql`o.created_at`)} as created_at,
               o.reporter_id, ${dn('rp')} as reporter_name,
               o.reported_id, ${dn('dp')} as reported_name, dpu.email as reported_email, dpu.role as reported_role,
               o.mixer_id, m.title as mixer_title, o.match_id,
               coalesce((select mm.hidden_at is not null from mixer_messages mm where mm.id = o.message_id), false) as line_hidden,
               o.evidence, o.evidence_photo_key as photo_key, o.group_key,
               ${identityChangesJson(sql`o.reported_id`)} as identity
          from open o join groups g on g.group_key = o.group_key
          left join "user" rpu on rpu.id = o.reporter_id left join profiles rpp on rpp.id = o.reporter_id
          left join "user" dpu on dpu.id = o.reported_id left join profiles dpp on dpp.id = o.reported_id
          left join mixers m on m.id = o.mixer_id
         order by g.sev, g.oldest, o.severity, o.created_at`,
  );
  const members = [...new Set(rows.map((r) => r.reported_id).filter((id): id is string => Boolean(id)))];
  const history = members.length
    ? await query<{ member_id: string; action: string; rule: string | null; at: string; reversed: boolean }>(
        db,
        sql`select member_id, action, rule, ${iso(sql`created_at`)} as at, reversed_at is not null as reversed
              from moderation_actions where member_id in (${sql.join(
                members.map((id) => sql`${id}`),
                sql`, `,
              )}) and action <> 'dismiss'
             order by created_at desc`,
      )
    : [];
  const earlier = members.length
    ? await query<{ reported_id: string; n: number }>(
        db,
        sql`select reported_id, count(*)::int as n from reports where status <> 'open' and reported_id in (${sql.join(
          members.map((id) => sql`${id}`),
          sql`, `,
        )}) group by reported_id`,
      )
    : [];
  const nowMs = now.getTime();
  const byGroup = new Map<string, QueueGroup>();
  for (const r of rows) {
    const severity = (r.severity === 0 ? 0 : 1) as 0 | 1;
    const targetAt = new Date(Date.parse(r.created_at) + TARGET_HOURS[severity] * 3_600_000).toISOString();
    const evidence = parseJson<Evidence | null>(r.evidence, null);
    const report: QueueReport = {
      id: r.id,
      reason: r.reason,
      details: r.details,
      kind: r.target_kind,
      severity,
      createdAt: r.created_at,
      targetAt,
      overdue: isOverdue(severity, r.created_at, nowMs),
      reporter: r.reporter_id ? { id: r.reporter_id, name: r.reporter_name ?? '' } : null,
      room: r.mixer_id
        ? { kind: 'mixer', id: r.mixer_id, title: r.mixer_title ?? 'A mixer' }
        : r.match_id
          ? { kind: 'direct', id: r.match_id, title: 'Private chat' }
          : null,
      lineHidden: r.line_hidden,
      evidence: evidence ? { ...evidence, photoUrl: r.photo_key ? app.deps.signer.url(r.photo_key) : null } : null,
    };
    let group = byGroup.get(r.group_key);
    if (!group) {
      group = {
        member: r.reported_id
          ? {
              id: r.reported_id,
              name: r.reported_name ?? '',
              email: r.reported_email ?? '',
              role: r.reported_role ?? 'user',
              identityChanges: toIdentityChanges(r.identity),
            }
          : null,
        severity,
        oldestAt: r.created_at,
        targetAt,
        overdue: false,
        reports: [],
        history: history
          .filter((h) => h.member_id === r.reported_id)
          .map((h) => ({ action: h.action, rule: h.rule, at: h.at, reversed: h.reversed })),
        earlierReports: earlier.find((e) => e.reported_id === r.reported_id)?.n ?? 0,
      };
      byGroup.set(r.group_key, group);
    }
    group.reports.push(report);
    if (severity < group.severity) group.severity = severity;
    if (Date.parse(r.created_at) < Date.parse(group.oldestAt)) group.oldestAt = r.created_at;
  }
  const groups = [...byGroup.values()].map((g) => {
    const first = g.reports.reduce((a, b) => (a.targetAt < b.targetAt ? a : b));
    return { ...g, targetAt: first.targetAt, overdue: g.reports.some((x) => x.overdue) };
  });
  return { groups: queueOrder(groups) };
}
