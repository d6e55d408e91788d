import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_TZ } from '../../../shared/constants';
import { composeMail } from '../../infra/mail/template';
import { epochMs, rowsOf } from '../../lib/sql';
import { firstNameOf } from '../../lib/members';
import { ukLongWhen } from '../../lib/uk-time';
import { notify } from '../push/service';

const shortWhen = new Intl.DateTimeFormat('en-GB', { timeZone: DEFAULT_TZ, weekday: 'short', hour: '2-digit', minute: '2-digit' });

interface AnnounceRow {
  user_id: string;
  mixer_id: string;
  title: string;
  topic: string;
  starts_ms: number;
  expires_ms: number;
  email: string;
  name: string | null;
  mail: boolean;
}

/**
 * Tells invited members about their new invitations: an in-app notice and a mail (unless
 * `notifyInvitations` is off, the address is unverified or the account suspended). The formation
 * job calls it after its transaction commits; invitations no longer pending are skipped.
 */
export async function announceInvitations(app: FastifyInstance, invitationIds: string[]): Promise<void> {
  if (!invitationIds.length) return;
  const rows = rowsOf<AnnounceRow>(
    await app.deps.database.db.execute(sql`
      select i.user_id, i.mixer_id, m.title, m.topic, ${epochMs(sql`m.starts_at`)} as starts_ms, ${epochMs(sql`i.expires_at`)} as expires_ms,
             u.email, coalesce(nullif(btrim(p.full_name), ''), u.name) as name,
             (u.email_verified and u.banned is not true and (p.preferences ->> 'notifyInvitations') is distinct from 'false') as mail
        from mixer_invitations i
        join mixers m on m.id = i.mixer_id
        join "user" u on u.id = i.user_id
        left join profiles p on p.id = i.user_id
       where i.id = any(string_to_array(${invitationIds.join(',')}, ',')::uuid[]) and i.status = 'pending' and m.status = 'scheduled'`),
  );
  const site = app.deps.config.publicUrl;
  for (const r of rows) {
    const held = shortWhen.format(new Date(Number(r.expires_ms)));
    await app.realtime.publish(`user:${r.user_id}`, {
      type: 'notice',
      title: "You're invited",
      description: `A seat is held for you in "${r.title}" until ${held}.`,
      link: { label: 'See the mixer', href: `/mixers/${r.mixer_id}` },
    });
    await app.realtime.publish(`user:${r.user_id}`, { type: 'mixer.updated', mixerId: r.mixer_id });
    notify(app, r.user_id, { category: 'invitation', url: `/mixers/${r.mixer_id}`, key: `invitation:${r.mixer_id}`, detail: r.title });
    if (!r.mail) continue;
    await app.deps.mailer.sendMail(
      composeMail(r.email, {
        subject: `You're invited: ${r.title}`,
        greeting: `Hi ${firstNameOf(r.name)},`,
        lines: [
          `A few people who'd join a mixer about ${r.topic} are free at the same time as you, so we've put one together: "${r.title}", on ${ukLongWhen.format(new Date(Number(r.starts_ms)))} (UK time).`,
          `Your seat is held until ${ukLongWhen.format(new Date(Number(r.expires_ms)))} (UK time). Accept it from the mixer's page, or decline if you can't make it and we'll offer it to someone else. No pressure either way.`,
        ],
        action: { label: 'See your invitation', url: `${site}/mixers/${r.mixer_id}` },
        footer: 'You get this because you told us when you are free. Turn these mails off in Settings → Notifications.',
      }),
    );
  }
}
