import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { AFTER_MIXER_MESSAGES, type AfterMixerView, afterMixerPath, type OpenPrompt } from '../../../shared/after-mixer';
import { AFTER_MIXER_PROMPT_MS } from '../../../shared/formation';
import { MIXER_MESSAGES, type MixerTheme } from '../../../shared/schemas/mixers';
import type { AppDeps, Publish } from '../../deps';
import { AppError } from '../../http/errors';
import { composeMail } from '../../infra/mail/template';
import { thumbKey } from '../profiles/service';
import { IN_MIXER_STATE, sharedMixer } from '../safety/service';
import { epochMs, isoFromMs, rowsOf } from '../../lib/sql';
import { firstNameOf } from '../../lib/members';
import { isUuid } from '../../http/cursor';

/**
 * "Who did you click with?" (issue 14). A member who was still in a mixer when it ended may
 * open its prompt for AFTER_MIXER_PROMPT_MS after the end; it lists the others they shared it
 * with (`sharedMixer`, decision 024: still joined, no block either way, not suspended), with
 * their Fancy state. The
 * fancies themselves go through the existing /api/fancies routes, private until mutual.
 */

type Deps = Pick<AppDeps, 'database' | 'signer' | 'config' | 'mailer'>;

interface PromptMixerRow {
  id: string;
  title: string;
  topic: string;
  theme: string;
  status: string;
  ends_ms: number;
  in_it: boolean;
}

interface PersonRow {
  id: string;
  name: string | null;
  avatar: string | null;
  fancied: boolean;
  match_id: string | null;
}

/** The prompt of one mixer, for a member who was in it when it ended; anyone else gets a 404. */
export async function getAfterMixer(deps: Deps, userId: string, mixerId: string, now = new Date()): Promise<AfterMixerView> {
  if (!isUuid(mixerId)) throw new AppError('not_found', MIXER_MESSAGES.notFound);
  const { db } = deps.database;
  const [mixer] = rowsOf<PromptMixerRow>(
    await db.execute(sql`
      select m.id, m.title, m.topic, m.theme, m.status, ${epochMs(sql`m.ends_at`)} as ends_ms,
             exists (select 1 from mixer_memberships c where c.mixer_id = m.id and c.user_id = ${userId} and c.state = ${IN_MIXER_STATE}) as in_it
        from mixers m where m.id = ${mixerId}`),
  );
  // Not in it (never joined, left, only waitlisted): as if there were no such mixer.
  if (!mixer?.in_it || mixer.status === 'cancelled') throw new AppError('not_found', MIXER_MESSAGES.notFound);
  const endsMs = Number(mixer.ends_ms);
  if (mixer.status !== 'ended' || endsMs > now.getTime()) throw new AppError('conflict', AFTER_MIXER_MESSAGES.notEnded);

  const closesMs = endsMs + AFTER_MIXER_PROMPT_MS;
  const open = now.getTime() < closesMs;
  const people = open
    ? rowsOf<PersonRow>(
        await db.execute(sql`
          select c.user_id as id, coalesce(nullif(btrim(p.full_name), ''), u.name) as name, p.avatar_url as avatar,
                 exists (select 1 from fancies f where f.from_user_id = ${userId} and f.to_user_id = c.user_id) as fancied,
                 (select mt.id from matches mt where mt.status = 'matched'
                     and ((mt.profile1_id = ${userId} and mt.profile2_id = c.user_id) or (mt.profile1_id = c.user_id and mt.profile2_id = ${userId}))
                   limit 1) as match_id
            from mixer_memberships c join "user" u on u.id = c.user_id left join profiles p on p.id = c.user_id
           where c.mixer_id = ${mixerId} and c.user_id <> ${userId}
             and ${sharedMixer(userId, sql`c.user_id`, mixerId)}
           order by c.joined_at, c.user_id`),
      )
    : [];
  return {
    mixer: {
      id: mixer.id,
      title: mixer.title,
      topic: mixer.topic,
      theme: mixer.theme as MixerTheme,
      endedAt: isoFromMs(endsMs),
    },
    open,
    closesAt: isoFromMs(closesMs),
    people: people.map((p) => ({
      id: p.id,
      firstName: firstNameOf(p.name),
      // The thumbnail, as every other list of people shows (the full photo is for the profile card).
      avatarUrl: p.avatar ? deps.signer.url(thumbKey(p.avatar)) : null,
      fancied: Boolean(p.fancied),
      matchId: p.match_id ?? null,
    })),
  };
}

interface OpenPromptRow {
  id: string;
  title: string;
  topic: string;
  theme: string;
  ends_ms: number;
  others: number | string;
}

/** The prompts still open for me (mixers I was in that ended in the last 48 hours), newest first. */
export async function listOpenPrompts(deps: Deps, userId: string, now = new Date()): Promise<OpenPrompt[]> {
  const at = now.toISOString();
  const rows = rowsOf<OpenPromptRow>(
    await deps.database.db.execute(sql`
      select m.id, m.title, m.topic, m.theme, ${epochMs(sql`m.ends_at`)} as ends_ms,
             (select count(*) from mixer_memberships o
               where o.mixer_id = m.id and o.user_id <> ${userId}
                 and ${sharedMixer(userId, sql`o.user_id`, sql`m.id`)})::int as others
        from mixer_memberships c join mixers m on m.id = c.mixer_id
       where c.user_id = ${userId} and c.state = ${IN_MIXER_STATE} and m.status = 'ended'
         and m.ends_at <= ${at}::timestamptz
         and m.ends_at > ${at}::timestamptz - make_interval(secs => ${AFTER_MIXER_PROMPT_MS / 1000})
       order by m.ends_at desc, m.id
       limit 10`),
  );
  return rows
    .filter((r) => Number(r.others) > 0)
    .map((r) => ({
      mixerId: r.id,
      title: r.title,
      topic: r.topic,
      theme: r.theme as MixerTheme,
      endedAt: isoFromMs(r.ends_ms),
      closesAt: isoFromMs(Number(r.ends_ms) + AFTER_MIXER_PROMPT_MS),
      others: Number(r.others),
    }));
}

interface EndedMemberRow {
  mixer_id: string;
  title: string;
  user_id: string;
  email: string;
  name: string | null;
  mail: boolean;
}

/**
 * Tells each member still in these just-ended mixers that their prompt is open: an in-app
 * notice always, a mail unless they turned "After a mixer" off (banned and unverified
 * accounts get nothing). The lifecycle calls it once per mixer, for the rows its conditional
 * `live → ended` update returned, so nobody is told twice.
 */
export async function announceAfterMixer(deps: Deps, publish: Publish, mixerIds: string[]): Promise<void> {
  if (!mixerIds.length) return;
  const rows = rowsOf<EndedMemberRow>(
    await deps.database.db.execute(sql`
      select m.id as mixer_id, m.title, u.id as user_id, u.email,
             coalesce(nullif(btrim(p.full_name), ''), u.name) as name,
             ((p.preferences ->> 'notifyAfterMixer') is distinct from 'false') as mail
        from mixers m
        join mixer_memberships c on c.mixer_id = m.id and c.state = ${IN_MIXER_STATE}
        join "user" u on u.id = c.user_id
        left join profiles p on p.id = u.id
       where m.id = any(string_to_array(${mixerIds.join(',')}, ',')::uuid[])
         and u.email_verified and u.banned is not true
         and exists (select 1 from mixer_memberships o
                      where o.mixer_id = m.id and o.user_id <> u.id and ${sharedMixer(sql`u.id`, sql`o.user_id`, sql`m.id`)})
       order by m.id, u.id`),
  );
  const site = deps.config.publicUrl;
  for (const row of rows) {
    await publish(`user:${row.user_id}`, {
      type: 'notice',
      title: AFTER_MIXER_MESSAGES.noticeTitle,
      description: `"${row.title}" has ended. Fancy anyone you'd like to see again — find it on Home for the next 48 hours.`,
      link: { label: 'Open', href: afterMixerPath(row.mixer_id) },
    });
    if (!row.mail) continue;
    await deps.mailer.sendMail(
      composeMail(row.email, {
        subject: `Who did you click with in "${row.title}"?`,
        greeting: `Hi ${firstNameOf(row.name)},`,
        lines: [
          `Thanks for coming to "${row.title}". If you'd like to see someone from it again, fancy them.`,
          "It's private: they'll only know if they fancy you too, and then your conversation opens. The page stays open for 48 hours.",
        ],
        action: { label: 'Who did you click with?', url: `${site}${afterMixerPath(row.mixer_id)}` },
        footer: 'You get this because you were in this mixer. Turn these mails off in Settings → Notifications.',
      }),
    );
  }
}

/** The lifecycle's hook for mixers that just ended: `announceAfterMixer` with the app's realtime hub. */
export function afterMixerHook(app: FastifyInstance) {
  return (mixerIds: string[]) => announceAfterMixer(app.deps, (room, event) => app.realtime.publish(room, event), mixerIds);
}
