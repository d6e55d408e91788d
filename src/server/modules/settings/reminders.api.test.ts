import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../../../tests/helpers/test-app';
import { auditLog, mixerMemberships, mixers, user } from '../../db/schema';
import { REMINDER_ACTION } from '../../lib/mixer-reminders';
import { sendMixerReminders } from './reminders';

const t = setupTestApp();

const SUBJECT = (title: string) => `Your mixer "${title}" starts soon`;

async function mixerStartingIn(minutes: number, title: string, status = 'scheduled', now = Date.now()) {
  const startsAt = new Date(now + minutes * 60_000);
  const [row] = await t.database.db
    .insert(mixers)
    .values({ title, topic: 'Board games', status, startsAt, endsAt: new Date(startsAt.getTime() + 90 * 60_000) })
    .returning({ id: mixers.id });
  return row.id;
}

describe('"Mixer starting soon" mail', () => {
  it('goes once to each joined member of mixers starting in the next 15 minutes who did not turn it off', async () => {
    const now = new Date();
    const keen = await t.member('Kit Keen');
    const quiet = await t.member('Quinn Quiet');
    const leaver = await t.member('Lee Leaver');
    const waiting = await t.member('Wyn Waitlist');
    const later = await t.member('Lou Later');
    await t.request({ method: 'PATCH', url: '/api/settings', cookie: quiet.cookie, payload: { notifyMixerSoon: false } });

    const soon = await mixerStartingIn(10, 'Catan Night', 'scheduled', now.getTime());
    const tomorrow = await mixerStartingIn(60 * 24, 'Chess Club', 'scheduled', now.getTime());
    const cancelled = await mixerStartingIn(5, 'Cancelled Cards', 'cancelled', now.getTime());
    await t.database.db.insert(mixerMemberships).values([
      { mixerId: soon, userId: keen.id },
      { mixerId: soon, userId: quiet.id },
      { mixerId: soon, userId: leaver.id, state: 'left' },
      { mixerId: soon, userId: waiting.id, state: 'waitlisted' },
      { mixerId: tomorrow, userId: later.id },
      { mixerId: cancelled, userId: later.id },
    ]);

    const sent = await sendMixerReminders(t.app, now);
    expect(sent).toBe(1);
    const [mail] = await t.mailsTo(keen.email);
    expect(mail.subject).toBe(SUBJECT('Catan Night'));
    expect(mail.text).toContain(`/mixers/${soon}`);
    expect(mail.text).toContain('Settings → Notifications');
    for (const m of [quiet, leaver, waiting, later]) {
      expect((await t.mailsTo(m.email)).filter((x) => x.subject.startsWith('Your mixer'))).toHaveLength(0);
    }
    const records = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, REMINDER_ACTION), eq(auditLog.target, `${soon}:${keen.id}`)));
    expect(records).toHaveLength(1);

    // Never twice: another run (a minute later, or an overlapping one) sends nothing new.
    const again = await Promise.all([sendMixerReminders(t.app, now), sendMixerReminders(t.app, new Date(now.getTime() + 60_000))]);
    expect(again).toEqual([0, 0]);
    expect((await t.mailsTo(keen.email)).filter((x) => x.subject === SUBJECT('Catan Night'))).toHaveLength(1);

    // The mixer a day away gets its mail when its time comes, not before.
    expect(await sendMixerReminders(t.app, new Date(now.getTime() + (24 * 60 - 14) * 60_000))).toBe(1);
    expect((await t.mailsTo(later.email)).map((x) => x.subject)).toContain(SUBJECT('Chess Club'));
  });

  it('skips unverified and banned accounts', async () => {
    const now = new Date();
    const banned = await t.member('Bo Banned');
    await t.database.db.update(user).set({ banned: true }).where(eq(user.id, banned.id));
    const unverified = await t.member('Uma Unverified', { verified: false });
    const mixerId = await mixerStartingIn(3, 'Quiz Night', 'scheduled', now.getTime());
    await t.database.db.insert(mixerMemberships).values([
      { mixerId, userId: banned.id },
      { mixerId, userId: unverified.id },
    ]);
    expect(await sendMixerReminders(t.app, now)).toBe(0);
  });
});
