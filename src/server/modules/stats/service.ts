import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { DashboardCounters } from '../../../shared/stats';
import { unreadCounts } from '../mixers/service';
import { conversationVisibleTo } from '../matches/service';

/** The six Home counters (spec §3, DESIGN §6), all real, in one round trip. */
export async function dashboardCounters(db: Db, userId: string): Promise<DashboardCounters> {
  const result = (await db.execute(sql`
    select
      (select count(*) from direct_messages d join matches m on m.id = d.match_id
         where d.recipient_id = ${userId} and d.is_read = false and m.status = 'matched' and ${conversationVisibleTo(userId)}) as "unreadMessages",
      (select count(*) from matches m where m.status = 'matched' and ${conversationVisibleTo(userId)}) as "matches",
      (select count(*) from mixers where status = 'live') as "activeMixers",
      (select count(*) from mixer_memberships where user_id = ${userId} and state = 'joined') as "mixersJoined",
      (select (select count(*) from direct_messages where sender_id = ${userId})
            + (select count(*) from mixer_messages where sender_id = ${userId})) as "messagesSent",
      (select count(*) from profile_views where viewed_id = ${userId}) as "profileViews",
      (select count(*) from matches m where m.status = 'matched' and ${conversationVisibleTo(userId)}
         and not exists (select 1 from direct_messages d where d.match_id = m.id)) as "newMatches",
      (select x.mentions from (${unreadCounts(userId)}) x) as "mixerMentions"
  `)) as unknown as { rows: Record<keyof DashboardCounters, string | number>[] };
  const row = result.rows[0];
  const n = (v: string | number | undefined) => Number(v ?? 0);
  return {
    unreadMessages: n(row.unreadMessages),
    matches: n(row.matches),
    activeMixers: n(row.activeMixers),
    mixersJoined: n(row.mixersJoined),
    messagesSent: n(row.messagesSent),
    profileViews: n(row.profileViews),
    newMatches: n(row.newMatches),
    mixerMentions: n(row.mixerMentions),
  };
}
