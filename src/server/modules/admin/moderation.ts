import { type SQL, sql } from 'drizzle-orm';
import type { AdminReport, Page } from '../../../shared/schemas/admin';
import { identityChangesJson, toIdentityChanges } from './identity-changes';
import { decodeCursor, encodeCursor, micros } from './sql';
import { iso, parseJson, type Queryable, query } from '../../lib/sql';

/** Context lines shown with a report. */
const CONTEXT_LINES = 10;

const displayName = (alias: string) => sql.raw(`coalesce(nullif(btrim(${alias}p.full_name), ''), ${alias}u.name)`);

interface ReportRow {
  id: string;
  reason: string;
  details: string;
  status: AdminReport['status'];
  resolution: string | null;
  resolved_by: string | null;
  resolved_at: string | null;
  created_at: string;
  sort: string;
  reporter_id: string | null;
  reporter_name: string | null;
  reporter_email: string | null;
  reported_id: string | null;
  reported_name: string | null;
  reported_email: string | null;
  reported_joined: string | null;
  reported_banned: boolean | null;
  reported_total: number;
  reported_warnings: number;
  reported_identity: unknown;
  mixer_id: string | null;
  mixer_title: string | null;
  mixer_status: string | null;
  mixer_starts: string | null;
  mixer_messages: AdminReport['mixerMessages'] | string | null;
  direct_messages: AdminReport['directMessages'] | string | null;
}

/**
 * The report queue: open reports oldest first (the queue order), or handled ones latest first,
 * each with its context — the reported member's latest lines in the mixer's chat and the latest
 * private messages between the two — in one round trip per page.
 */
export async function listReports(
  db: Queryable,
  opts: { status: 'open' | 'resolved'; cursor?: string; limit: number },
): Promise<Page<AdminReport>> {
  const cursor = decodeCursor(opts.cursor);
  const open = opts.status === 'open';
  const tsCol = open ? sql`r.created_at` : sql`coalesce(r.resolved_at, r.created_at)`;
  const key = micros(tsCol);
  const after: SQL = !cursor
    ? sql`true`
    : open
      ? sql`(${key} > ${cursor.sort}::bigint or (${key} = ${cursor.sort}::bigint and r.id > ${cursor.id}::uuid))`
      : sql`(${key} < ${cursor.sort}::bigint or (${key} = ${cursor.sort}::bigint and r.id < ${cursor.id}::uuid))`;
  const order = open ? sql`r.created_at asc, r.id asc` : sql`coalesce(r.resolved_at, r.created_at) desc, r.id desc`;
  const rows = await query<ReportRow>(
    db,
    sql`select r.id, r.reason, r.details, r.status, r.resolution, rb.name as resolved_by,
               ${iso(sql`r.resolved_at`)} as resolved_at, ${iso(sql`r.created_at`)} as created_at, ${key}::text as sort,
               r.reporter_id, ${displayName('rp')} as reporter_name, rpu.email as reporter_email,
               r.reported_id, ${displayName('dp')} as reported_name, dpu.email as reported_email,
               ${iso(sql`dpu.created_at`)} as reported_joined, dpu.banned as reported_banned,
               (select count(*)::int from reports x where x.reported_id = r.reported_id) as reported_total,
               (select count(*)::int from reports x where x.reported_id = r.reported_id and x.status = 'warned') as reported_warnings,
               ${identityChangesJson(sql`r.reported_id`)} as reported_identity,
               m.id as mixer_id, m.title as mixer_title, m.status as mixer_status, ${iso(sql`m.starts_at`)} as mixer_starts,
               (select coalesce(json_agg(json_build_object('id', y.id, 'body', y.body, 'createdAt', y.created_at) order by y.created_at), '[]'::json)
                  from (select mm.id, mm.body, ${iso(sql`mm.created_at`)} as created_at from mixer_messages mm
                         where r.mixer_id is not null and mm.mixer_id = r.mixer_id and mm.sender_id = r.reported_id
                         order by mm.created_at desc limit ${CONTEXT_LINES}) y) as mixer_messages,
               (select coalesce(json_agg(json_build_object('id', y.id, 'body', y.body, 'createdAt', y.created_at, 'fromReported', y.from_reported)
                                          order by y.created_at), '[]'::json)
                  from (select dm.id, dm.body, ${iso(sql`dm.created_at`)} as created_at, dm.sender_id = r.reported_id as from_reported
                          from direct_messages dm
                         where r.reporter_id is not null
                           and ((dm.sender_id = r.reported_id and dm.recipient_id = r.reporter_id)
                             or (dm.sender_id = r.reporter_id and dm.recipient_id = r.reported_id))
                         order by dm.created_at desc limit ${CONTEXT_LINES}) y) as direct_messages
          from reports r
          left join "user" dpu on dpu.id = r.reported_id
          left join profiles dpp on dpp.id = r.reported_id
          left join "user" rpu on rpu.id = r.reporter_id
          left join profiles rpp on rpp.id = r.reporter_id
          left join "user" rb on rb.id = r.resolved_by
          left join mixers m on m.id = r.mixer_id
         where ${open ? sql`r.status = 'open'` : sql`r.status <> 'open'`} and ${after}
         order by ${order}
         limit ${opts.limit + 1}`,
  );
  const more = rows.length > opts.limit;
  const page = more ? rows.slice(0, opts.limit) : rows;
  const last = page.at(-1);
  return {
    items: page.map((r) => ({
      id: r.id,
      reason: r.reason,
      details: r.details,
      status: r.status,
      resolution: r.resolution,
      resolvedBy: r.resolved_by,
      resolvedAt: r.resolved_at,
      createdAt: r.created_at,
      reporter: r.reporter_id ? { id: r.reporter_id, name: r.reporter_name ?? '', email: r.reporter_email ?? '' } : null,
      // A member who deleted their account leaves the report behind, anonymised.
      reported: r.reported_id
        ? {
            id: r.reported_id,
            name: r.reported_name ?? '',
            email: r.reported_email ?? '',
            joinedAt: r.reported_joined ?? '',
            suspended: Boolean(r.reported_banned),
            reportsTotal: r.reported_total,
            warnings: r.reported_warnings,
            identityChanges: toIdentityChanges(r.reported_identity),
          }
        : null,
      mixer: r.mixer_id
        ? { id: r.mixer_id, title: r.mixer_title ?? '', status: r.mixer_status ?? '', startsAt: r.mixer_starts ?? '' }
        : null,
      mixerMessages: parseJson(r.mixer_messages, []),
      directMessages: parseJson(r.direct_messages, []),
    })),
    nextCursor: more && last ? encodeCursor(last.sort, last.id) : null,
  };
}
