import type { AppDeps, Publish } from '../../deps';
import { composeMail } from '../../infra/mail/template';
import type { Promoted } from './seats';
import { firstNameOf } from '../../lib/members';

const whenFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  hour: '2-digit',
  minute: '2-digit',
});

/**
 * Tells a member who moved off the waitlist that the freed seat is theirs: realtime counter and
 * notice, and a mail. Used by a leave, a declined invitation and an expired one (one wording).
 */
export async function tellPromoted(
  deps: Pick<AppDeps, 'config' | 'mailer'>,
  publish: Publish,
  promoted: Promoted,
  mixer: { id: string; title: string; status: string; starts_ms: number },
): Promise<void> {
  const room = `user:${promoted.user_id}`;
  await publish(room, { type: 'counter', key: 'mixersJoined', delta: 1 });
  await publish(room, { type: 'notice', title: "You're in!", description: `A seat opened up in "${mixer.title}" and it's yours.` });
  await publish(room, { type: 'mixer.updated', mixerId: mixer.id });
  const when = whenFormat.format(new Date(Number(mixer.starts_ms)));
  await deps.mailer.sendMail(
    composeMail(promoted.email, {
      subject: `You're in: ${mixer.title}`,
      greeting: `Hi ${firstNameOf(promoted.name)},`,
      lines: [
        `Good news: a seat opened up in "${mixer.title}" and it's yours. You've moved off the waitlist and joined the mixer.`,
        mixer.status === 'live' ? "It's live right now, so jump into the chat and say hello." : `It starts on ${when} (UK time).`,
        "Can't make it after all? Leave the mixer from its page so the next person on the waitlist gets your seat.",
      ],
      action: { label: 'Open the mixer', url: `${deps.config.publicUrl}/mixers/${mixer.id}` },
    }),
  );
}
