import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { completeProfile } from '../../../../tests/helpers/profile-fixtures';
import { createMixer, joinMixer, matchedPair, type Member, send } from '../../../../tests/helpers/mixer-fixtures';
import { setupTestApp } from '../../../../tests/helpers/test-app';
import { MODERATION_MESSAGES, type QueueGroup } from '../../../shared/schemas/moderation';
import type { ServerEvent } from '../../../shared/realtime/events';
import { rowsOf } from '../../lib/sql';
import { SAFETY_MESSAGES } from '../../../shared/schemas/safety';
import { dailyActivity, mixerInvitations, mixers, profiles } from '../../db/schema';
import { loadCandidates } from '../formation/job';
import { deleteAccount } from '../settings/service';
import { APPEAL_LINK_READS, APPEAL_LINK_SENDS } from './member-routes';
import { appealToken } from './moderation-actions';
import { liftEndedSuspensions, purgeOldEvidence } from './moderation-retention';

/** Issue 30: reports freeze their evidence; moderators act with a rule; members appeal to a different admin. */
const t = setupTestApp({ restoreMocks: true });

type Json = Record<string, unknown>;
const post = (m: Member | undefined, url: string, payload: unknown) =>
  t.request({ method: 'POST', url, cookie: m?.cookie, payload: payload as Json });
const get = (m: Member | undefined, url: string) => t.request({ method: 'GET', url, cookie: m?.cookie });
const reportLine = (m: Member, payload: Json) =>
  post(m, '/api/reports/line', { kind: 'mixer', reason: 'Harassment or bullying', details: 'Not ok', ...payload });
const queue = async (admin: Member): Promise<QueueGroup[]> => (await get(admin, '/api/admin/moderation/queue')).json().groups;
const act = (admin: Member, reportId: string, payload: Json) => post(admin, `/api/admin/reports/${reportId}/act`, payload);
const lines = async (m: Member, mixerId: string) =>
  (await get(m, `/api/mixers/${mixerId}/messages`)).json().items as { id: string; body: string; hidden?: boolean }[];

/** A live mixer with a sender, two other members and 25 lines; the reported line is the 13th. */
async function room() {
  const sender = await t.member('Dorian Gray');
  const a = await t.member('Maya Okafor');
  const b = await t.member('Rhys Llewellyn');
  const mixerId = await createMixer(t);
  await joinMixer(t, mixerId, [sender.id, a.id, b.id]);
  // Written straight to the table (the chat's pace limit would slow 25 lines down), a second apart.
  const ids: string[] = [];
  for (let i = 1; i <= 25; i++) {
    const [row] = rowsOf<{ id: string }>(
      await t.database.db.execute(
        sql`insert into mixer_messages (mixer_id, sender_id, body, created_at)
            values (${mixerId}, ${i % 2 ? sender.id : a.id}, ${i === 13 ? 'you are pathetic' : `line ${i}`}, now() - make_interval(secs => ${60 - i}))
            returning id`,
      ),
    );
    ids.push(row.id);
  }
  return { sender, a, b, mixerId, ids, lineId: ids[12] };
}

describe('a report freezes its evidence', () => {
  it('keeps the line, 10 before and after with authors, the profile and photo through edit, unsend, block, the end of the mixer and account deletion', async () => {
    const admin = await t.member('Ada Admin', { admin: true });
    const { sender, a, mixerId, ids, lineId } = await room();
    await t.database.db.execute(
      sql`update profiles set bio = 'Witty and kind', avatar_url = ${`${sender.id}/main.webp`} where id = ${sender.id}`,
    );
    await t.deps.storage.put(`${sender.id}/main.webp`, Buffer.from('photo-bytes'), 'image/webp');

    const res = await reportLine(a, { roomId: mixerId, messageId: lineId });
    expect(res.statusCode).toBe(201);
    const reportId = res.json().id as string;

    // The sender edits and then unsends the line, a blocks the sender, the mixer ends, the sender deletes the account.
    await t.database.db.execute(sql`update mixer_messages set body = 'edited' where id = ${lineId}`);
    await t.database.db.execute(sql`delete from mixer_messages where id = ${lineId}`);
    expect((await post(a, '/api/blocks', { userId: sender.id })).statusCode).toBe(201);
    await t.database.db.execute(sql`update mixers set status = 'ended' where id = ${mixerId}`);
    await deleteAccount(t.deps, sender.id, { error: () => {} });

    const group = (await queue(admin)).find((g) => g.reports.some((r) => r.id === reportId));
    expect(group?.member).toBeNull();
    const ev = group?.reports[0].evidence;
    expect(ev?.line).toMatchObject({ id: lineId, body: 'you are pathetic', authorName: 'Dorian Gray' });
    expect(ev?.before.map((l) => l.id)).toEqual(ids.slice(2, 12));
    expect(ev?.after.map((l) => l.id)).toEqual(ids.slice(13, 23));
    expect(ev?.before[0]).toMatchObject({ body: 'line 3', authorName: 'Dorian Gray' });
    expect(ev?.before[1]).toMatchObject({ body: 'line 4', authorName: 'Maya Okafor' });
    expect(ev?.profile).toMatchObject({ name: 'Dorian Gray', bio: 'Witty and kind' });

    // The photo copy outlives the member's folder; only moderators may open it.
    const photoUrl = ev?.photoUrl as string;
    expect(photoUrl).toContain(`evidence/${reportId}/`);
    const photo = await get(admin, photoUrl);
    expect(photo.statusCode).toBe(200);
    expect(photo.body).toBe('photo-bytes');
    expect((await get(a, photoUrl)).statusCode).toBe(404);
    // Members never see evidence: the queue is for admins.
    expect((await get(a, '/api/admin/moderation/queue')).statusCode).toBe(403);

    // The reporter's own view and export list their words, not the evidence.
    const mine = (await get(a, '/api/moderation/mine')).json();
    expect(mine.reports).toEqual([expect.objectContaining({ id: reportId, details: 'Not ok', outcome: 'open' })]);
    expect(JSON.stringify(mine)).not.toContain('pathetic');
  });

  it('refuses a line one cannot see, of another room, one’s own, a system line, twice, or malformed (clear 4xx)', async () => {
    const { sender, a, b, mixerId, lineId } = await room();
    const other = await createMixer(t);
    const outsider = await t.member('Olive Outsider');

    expect((await reportLine(a, { roomId: other, messageId: lineId })).json().error.message).toBe(SAFETY_MESSAGES.lineNotFound);
    expect((await reportLine(outsider, { roomId: mixerId, messageId: lineId })).statusCode).toBe(404);
    const own = await reportLine(sender, { roomId: mixerId, messageId: lineId });
    expect([own.statusCode, own.json().error.message]).toEqual([400, SAFETY_MESSAGES.lineOwn]);
    const [sys] = rowsOf<{ id: string }>(
      await t.database.db.execute(
        sql`insert into mixer_messages (mixer_id, kind, body) values (${mixerId}, 'icebreaker', 'Hi all') returning id`,
      ),
    );
    expect((await reportLine(a, { roomId: mixerId, messageId: sys.id })).json().error.message).toBe(SAFETY_MESSAGES.lineSystem);

    expect((await reportLine(a, { roomId: mixerId, messageId: lineId })).statusCode).toBe(201);
    const twice = await reportLine(a, { roomId: mixerId, messageId: lineId });
    expect([twice.statusCode, twice.json().error.message]).toEqual([409, SAFETY_MESSAGES.lineTwice]);

    // b blocked the sender: the line is not one b can see.
    await post(b, '/api/blocks', { userId: sender.id });
    expect((await reportLine(b, { roomId: mixerId, messageId: lineId })).statusCode).toBe(404);

    for (const bad of [
      { roomId: 'x', messageId: lineId },
      { roomId: mixerId, messageId: lineId, kind: 'other' },
      { roomId: mixerId, messageId: lineId, reason: 'Meh' },
    ]) {
      const res = await reportLine(a, bad);
      expect(res.statusCode).toBe(400);
    }
    expect(
      (await post(undefined, '/api/reports/line', { kind: 'mixer', roomId: mixerId, messageId: lineId, reason: 'Spam or scam' }))
        .statusCode,
    ).toBe(401);
  });

  it('reports a private line only for one of the two, with the conversation around it', async () => {
    const { a, b, matchId } = await matchedPair(t);
    const outsider = await t.member('Olive Outsider');
    await send(t, a, matchId, 'hello');
    const sent = await send(t, b, matchId, 'send me £200 in gift cards');
    const messageId = sent.json().message.id as string;
    const payload = { kind: 'direct', roomId: matchId, messageId, reason: 'Spam or scam' };
    expect((await post(outsider, '/api/reports/line', payload)).statusCode).toBe(404);
    expect((await post(b, '/api/reports/line', payload)).statusCode).toBe(400);
    const ok = await post(a, '/api/reports/line', payload);
    expect(ok.statusCode).toBe(201);
    const admin = await t.member('Ada Admin', { admin: true });
    const report = (await queue(admin)).flatMap((g) => g.reports).find((r) => r.id === ok.json().id);
    expect(report?.evidence?.line?.body).toBe('send me £200 in gift cards');
    expect(report?.evidence?.before.map((l) => l.body)).toEqual(['hello']);

    // Removing it takes it from both sides.
    expect((await act(admin, report?.id as string, { action: 'remove', rule: 'scams' })).statusCode).toBe(200);
    for (const m of [a, b]) {
      const page = (await get(m, `/api/conversations/${matchId}/messages`)).json();
      expect(JSON.stringify(page)).not.toContain('gift cards');
    }
  });
});

describe('two reporters hide a line', () => {
  it('one member alone cannot hide it; a second member of the room hides it for everyone; the moderator restores it', async () => {
    const admin = await t.member('Ada Admin', { admin: true });
    const { sender, a, b, mixerId, lineId } = await room();
    const third = await t.member('Tess Third');
    await joinMixer(t, mixerId, [third.id]);
    const publish = vi.spyOn(t.app.realtime, 'publish');

    expect((await reportLine(a, { roomId: mixerId, messageId: lineId })).json().hidden).toBe(false);
    expect((await reportLine(a, { roomId: mixerId, messageId: lineId })).statusCode).toBe(409);
    expect((await lines(third, mixerId)).find((l) => l.id === lineId)?.body).toBe('you are pathetic');

    const second = await reportLine(b, { roomId: mixerId, messageId: lineId });
    expect(second.json().hidden).toBe(true);
    expect(publish).toHaveBeenCalledWith(`mixer:${mixerId}`, { type: 'mixer.line', mixerId, messageId: lineId, state: 'hidden' });
    for (const m of [third, sender, a])
      expect((await lines(m, mixerId)).find((l) => l.id === lineId)).toMatchObject({ body: '', hidden: true });

    const group = (await queue(admin)).find((g) => g.member?.id === sender.id);
    expect(group?.reports).toHaveLength(2);
    expect(group?.reports[0].lineHidden).toBe(true);
    // Dismissing restores the line and closes both reports of it.
    expect((await act(admin, group?.reports[0].id as string, { action: 'dismiss' })).json().status).toBe('dismissed');
    expect((await lines(third, mixerId)).find((l) => l.id === lineId)).toMatchObject({ body: 'you are pathetic' });
    expect((await queue(admin)).find((g) => g.member?.id === sender.id)).toBeUndefined();
    expect((await get(a, '/api/moderation/mine')).json().reports[0].outcome).toBe('no_action');
  });
});

describe('the queue', () => {
  it('orders by severity, then age, and marks overdue reports against their target', async () => {
    const admin = await t.member('Ada Admin', { admin: true });
    const reporter = await t.member('Rae Reporter');
    const older = await t.member('Olly Older');
    const severe = await t.member('Sev Severe');
    const fresh = await t.member('Fay Fresh');
    const r1 = (await post(reporter, '/api/reports', { userId: older.id, reason: 'Spam or scam' })).json().id;
    const r2 = (await post(reporter, '/api/reports', { userId: severe.id, reason: 'Threats of violence' })).json().id;
    await post(reporter, '/api/reports', { userId: fresh.id, reason: 'Fake profile' });
    await t.database.db.execute(sql`update reports set created_at = now() - interval '30 hours' where id = ${r1}`);
    await t.database.db.execute(sql`update reports set created_at = now() - interval '20 minutes' where id = ${r2}`);

    const mine = new Set([older.id, severe.id, fresh.id]);
    const groups = (await queue(admin)).filter((g) => g.member && mine.has(g.member.id));
    expect(groups.map((g) => g.member?.id)).toEqual([severe.id, older.id, fresh.id]);
    expect(groups.map((g) => [g.severity, g.overdue])).toEqual([
      [0, false],
      [1, true],
      [1, false],
    ]);
    await t.database.db.execute(sql`update reports set created_at = now() - interval '2 hours' where id = ${r2}`);
    expect((await queue(admin)).find((g) => g.member?.id === severe.id)?.overdue).toBe(true);
  });
});

async function withInvitation(m: Member) {
  const [mx] = await t.database.db
    .insert(mixers)
    .values({
      title: 'Formed one',
      topic: 'Bouldering',
      status: 'scheduled',
      origin: 'auto',
      startsAt: new Date(Date.now() + 26 * 3_600_000),
      endsAt: new Date(Date.now() + 27 * 3_600_000),
      maxParticipants: 4,
    })
    .returning({ id: mixers.id });
  const [inv] = await t.database.db
    .insert(mixerInvitations)
    .values({ mixerId: mx.id, userId: m.id, side: 'all', expiresAt: new Date(Date.now() + 12 * 3_600_000) })
    .returning({ id: mixerInvitations.id });
  return { mixerId: mx.id, invitationId: inv.id };
}

async function formable(m: Member) {
  await completeProfile(t.database.db, m.id, { availability: ['fri-evening'], lookingFor: ['Friends'] });
  await t.database.db
    .insert(dailyActivity)
    .values({ userId: m.id, day: new Date().toISOString().slice(0, 10) })
    .onConflictDoNothing();
}
const isCandidate = async (m: Member) => (await loadCandidates(t.database.db, new Date())).candidates.some((c) => c.id === m.id);

describe('moderator actions', () => {
  it('remove + mute: the line goes, the sender reads but cannot write, join, accept or be formed; told the rule and the line; appeal reversed by another admin', async () => {
    const admin = await t.member('Ada Admin', { admin: true });
    const second = await t.member('Ben Admin', { admin: true });
    const { sender, a, b, mixerId, lineId } = await room();
    await formable(sender);
    const { invitationId } = await withInvitation(sender);
    const another = await createMixer(t, { status: 'scheduled', startsInMinutes: 120 });
    expect(await isCandidate(sender)).toBe(true);
    const reportId = (await reportLine(a, { roomId: mixerId, messageId: lineId })).json().id;
    const publish = vi.spyOn(t.app.realtime, 'publish');

    const bad = await act(admin, reportId, { action: 'mute', rule: 'hate' });
    expect([bad.statusCode, bad.json().error.message]).toEqual([400, MODERATION_MESSAGES.daysRequired]);
    expect((await act(admin, reportId, { action: 'warn' })).statusCode).toBe(400);
    const res = await act(admin, reportId, { action: 'mute', rule: 'hate', days: 7, removeLine: true });
    expect(res.statusCode).toBe(200);
    expect((await act(admin, reportId, { action: 'warn', rule: 'hate' })).statusCode).toBe(409);

    // The line is gone for everyone; the evidence keeps it.
    for (const m of [a, b, sender]) expect((await lines(m, mixerId)).map((l) => l.id)).not.toContain(lineId);
    expect(publish).toHaveBeenCalledWith(`mixer:${mixerId}`, { type: 'mixer.line', mixerId, messageId: lineId, state: 'removed' });

    // Muted: reads, cannot write, join, accept an invitation, or be formed.
    expect((await get(sender, `/api/mixers/${mixerId}/messages`)).statusCode).toBe(200);
    const write = await post(sender, `/api/mixers/${mixerId}/messages`, { body: 'hello?' });
    expect(write.statusCode).toBe(403);
    expect(write.json().error.message).toMatch(/^You're muted in mixers until/);
    expect((await post(sender, `/api/mixers/${another}/join`, {})).statusCode).toBe(403);
    const inv = await post(sender, `/api/invitations/${invitationId}/accept`, {});
    expect(inv.statusCode).toBeGreaterThanOrEqual(400);
    expect(inv.statusCode).toBeLessThan(500);
    const [invRow] = rowsOf<{ status: string }>(
      await t.database.db.execute(sql`select status from mixer_invitations where id = ${invitationId}`),
    );
    expect(invRow.status).toBe('withdrawn');
    expect(await isCandidate(sender)).toBe(false);

    // Told: the member which rule, which line, what now; the reporter only that action was taken.
    const toSender = (await t.mailsTo(sender.email))[0];
    expect(toSender.text).toContain('No harassment, hate or bullying');
    expect(toSender.text).toContain('"you are pathetic"');
    expect(toSender.text).toMatch(/can't write in them, join one or be invited until/);
    const toReporter = (await t.mailsTo(a.email))[0];
    expect(toReporter.text).toContain('took action');
    expect(toReporter.text).not.toMatch(/mute/i);
    const events = publish.mock.calls.map(([room, e]) => [room, e] as [string, ServerEvent]);
    expect(events).toContainEqual([
      `user:${sender.id}`,
      expect.objectContaining({ type: 'notice', title: 'Muted in mixers for 7 days: No harassment, hate or bullying' }),
    ]);

    // Appeal: once, from the member; the acting admin cannot decide it; another admin reverses.
    const mine = (await get(sender, '/api/moderation/mine')).json();
    expect(mine.actions[0]).toMatchObject({ action: 'mute', quote: 'you are pathetic', appealable: true });
    const actionId = mine.actions[0].id;
    expect((await post(sender, '/api/appeals', { actionId, text: 'short' })).statusCode).toBe(400);
    expect((await post(b, '/api/appeals', { actionId, text: 'This was not me at all, honestly.' })).statusCode).toBe(404);
    expect((await post(sender, '/api/appeals', { actionId, text: 'It was a joke between friends, sorry.' })).statusCode).toBe(201);
    const twice = await post(sender, '/api/appeals', { actionId, text: 'It was a joke between friends, sorry.' });
    expect([twice.statusCode, twice.json().error.message]).toEqual([409, MODERATION_MESSAGES.appealTwice]);

    const listed = (await get(admin, '/api/admin/appeals')).json().appeals;
    expect(listed[0]).toMatchObject({ decidable: false });
    const appealId = listed[0].id;
    const same = await post(admin, `/api/admin/appeals/${appealId}/decide`, { decision: 'reverse', note: 'Fair enough' });
    expect([same.statusCode, same.json().error.message]).toEqual([403, MODERATION_MESSAGES.appealSameAdmin]);
    expect((await get(second, '/api/admin/appeals')).json().appeals[0].decidable).toBe(true);
    const rev = await post(second, `/api/admin/appeals/${appealId}/decide`, { decision: 'reverse', note: 'Context shows a joke.' });
    expect(rev.json()).toEqual({ status: 'reversed' });
    expect((await post(second, `/api/admin/appeals/${appealId}/decide`, { decision: 'uphold', note: 'Changed my mind' })).statusCode).toBe(
      409,
    );

    // Reversed: the line is back and the member may write and join again.
    expect((await lines(a, mixerId)).map((l) => l.id)).toContain(lineId);
    expect((await post(sender, `/api/mixers/${mixerId}/messages`, { body: 'sorry all' })).statusCode).toBe(201);
    expect((await post(sender, `/api/mixers/${another}/join`, {})).statusCode).toBe(200);
    expect((await get(sender, '/api/moderation/mine')).json().actions[0]).toMatchObject({ reversed: true, appeal: { status: 'reversed' } });
    expect((await t.mailsTo(sender.email))[0].subject).toBe('About your appeal');
    const metrics = (await get(second, '/api/admin/metrics')).json().moderation;
    expect(metrics.appeals).toBeGreaterThanOrEqual(1);
    expect(metrics.reversalRate).toBeGreaterThan(0);
    expect(metrics.timeToFirstAction[1].reports).toBeGreaterThanOrEqual(1);
    expect(metrics.timeToFirstAction[1].medianMinutes).not.toBeNull();
    expect(metrics.reportsPerDay.at(-1).n).toBeGreaterThanOrEqual(1);
    const audit = (await get(second, '/api/admin/audit')).json().items.map((e: { action: string }) => e.action);
    expect(audit).toEqual(expect.arrayContaining(['appeal.reversed', 'moderation.mute']));
  });

  it('the reporter turns off the outcome mail in Settings: the in-app notice still arrives, the mail does not', async () => {
    const admin = await t.member('Ada Admin', { admin: true });
    const { a, b, mixerId, lineId } = await room();
    const off = await t.request({ method: 'PATCH', url: '/api/settings', cookie: a.cookie, payload: { notifyReports: false } });
    expect(off.json().settings.preferences.notifyReports).toBe(false);
    const reportA = (await reportLine(a, { roomId: mixerId, messageId: lineId })).json().id;
    await reportLine(b, { roomId: mixerId, messageId: lineId });
    const mailsBefore = (await t.mailsTo(a.email)).length;
    const publish = vi.spyOn(t.app.realtime, 'publish');

    expect((await act(admin, reportA, { action: 'warn', rule: 'hate' })).statusCode).toBe(200);
    const notice = expect.objectContaining({ type: 'notice', title: 'About your report' });
    expect(publish).toHaveBeenCalledWith(`user:${a.id}`, notice);
    expect(publish).toHaveBeenCalledWith(`user:${b.id}`, notice);
    expect((await t.mailsTo(a.email)).length).toBe(mailsBefore);
    // The other reporter, who left it on, gets the mail.
    expect((await t.mailsTo(b.email))[0].subject).toBe('About your report');
  });

  it('an appeal after 14 days is refused, and a dismissal cannot be appealed', async () => {
    const admin = await t.member('Ada Admin', { admin: true });
    const { sender, a, mixerId, lineId } = await room();
    const reportId = (await reportLine(a, { roomId: mixerId, messageId: lineId })).json().id;
    await act(admin, reportId, { action: 'warn', rule: 'hate' });
    const actionId = (await get(sender, '/api/moderation/mine')).json().actions[0].id;
    await t.database.db.execute(sql`update moderation_actions set created_at = now() - interval '15 days' where id = ${actionId}`);
    const late = await post(sender, '/api/appeals', { actionId, text: 'Please look at it again.' });
    expect([late.statusCode, late.json().error.message]).toEqual([409, MODERATION_MESSAGES.appealLate]);
  });

  it('suspend: the member vanishes from the room, is signed out, cannot be formed; the suspension ends by itself; appeal by link', async () => {
    const admin = await t.member('Ada Admin', { admin: true });
    const second = await t.member('Ben Admin', { admin: true });
    const { sender, a, mixerId, lineId } = await room();
    await formable(sender);
    const { invitationId } = await withInvitation(sender);
    const reportId = (await reportLine(a, { roomId: mixerId, messageId: lineId })).json().id;
    const closeUser = vi.spyOn(t.app.realtime, 'closeUser');
    expect((await act(admin, reportId, { action: 'suspend', rule: 'hate', days: 1 })).json().status).toBe('suspended');

    expect(closeUser).toHaveBeenCalledWith(sender.id, 'suspended');
    expect((await get(sender, '/api/mixers')).statusCode).toBe(401);
    expect((await lines(a, mixerId)).some((l) => l.id === lineId)).toBe(false);
    expect(await isCandidate(sender)).toBe(false);
    const [invRow] = rowsOf<{ status: string }>(
      await t.database.db.execute(sql`select status from mixer_invitations where id = ${invitationId}`),
    );
    expect(invRow.status).toBe('withdrawn');

    // The mail carries a one-time appeal link; a forged token is refused.
    const link = await t.lastLinkTo(sender.email);
    const token = new URL(link).searchParams.get('token') as string;
    expect((await get(undefined, `/api/appeals/link?token=${encodeURIComponent(token)}`)).json()).toMatchObject({
      action: 'suspend',
      appealed: false,
    });
    expect((await post(undefined, '/api/appeals/link', { token: `${token}x`, text: 'Please reconsider this.' })).statusCode).toBe(403);
    expect((await post(undefined, '/api/appeals/link', { token, text: 'Please reconsider this.' })).statusCode).toBe(201);
    expect((await post(undefined, '/api/appeals/link', { token, text: 'Please reconsider this.' })).statusCode).toBe(409);
    const appealId = (await get(second, '/api/admin/appeals')).json().appeals[0].id;
    expect(
      (await post(second, `/api/admin/appeals/${appealId}/decide`, { decision: 'uphold', note: 'The line broke our rules.' })).json(),
    ).toEqual({
      status: 'upheld',
    });

    // A day later the job lifts it.
    await t.database.db.execute(sql`update "user" set ban_expires = now() - interval '1 minute' where id = ${sender.id}`);
    expect(await liftEndedSuspensions(t.app, new Date())).toBe(1);
    expect(await isCandidate(sender)).toBe(true);
  });

  it('ban: the account ends, the address cannot register again until a second admin reverses it on appeal', async () => {
    const admin = await t.member('Ada Admin', { admin: true });
    const second = await t.member('Ben Admin', { admin: true });
    const { sender, a, mixerId, lineId } = await room();
    const reportId = (await reportLine(a, { roomId: mixerId, messageId: lineId, reason: 'Threats of violence' })).json().id;
    expect((await act(admin, reportId, { action: 'ban', rule: 'violence' })).statusCode).toBe(200);
    expect(rowsOf(await t.database.db.execute(sql`select 1 from "user" where id = ${sender.id}`))).toHaveLength(0);

    const register = () =>
      t.request({
        method: 'POST',
        url: '/api/auth/register',
        remoteAddress: '127.9.9.9',
        payload: { fullName: 'Dorian Again', email: sender.email, password: 'velvet-otter-lantern' },
      });
    const refused = await register();
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.body).toContain(MODERATION_MESSAGES.bannedEmail);

    const link = await t.lastLinkTo(sender.email);
    const token = new URL(link).searchParams.get('token') as string;
    expect(
      (await post(undefined, '/api/appeals/link', { token, text: 'I did not write that line.', email: 'someone@else.test' })).statusCode,
    ).toBe(403);
    expect(
      (await post(undefined, '/api/appeals/link', { token, text: 'I did not write that line.', email: sender.email.toUpperCase() }))
        .statusCode,
    ).toBe(201);
    const appealId = (await get(second, '/api/admin/appeals')).json().appeals[0].id;
    await post(second, `/api/admin/appeals/${appealId}/decide`, { decision: 'reverse', note: 'Someone else used the phone.' });
    expect((await t.mailsTo(sender.email))[0].text).toContain('You may register again');
    expect((await register()).statusCode).toBe(200);
  });

  it('an admin cannot be muted, and a deleted member’s report can only be dismissed or its line removed', async () => {
    const admin = await t.member('Ada Admin', { admin: true });
    const { sender, a, mixerId, lineId } = await room();
    const reportId = (await reportLine(a, { roomId: mixerId, messageId: lineId })).json().id;
    await deleteAccount(t.deps, sender.id, { error: () => {} });
    const res = await act(admin, reportId, { action: 'warn', rule: 'hate' });
    expect([res.statusCode, res.json().error.message]).toEqual([409, MODERATION_MESSAGES.memberGone]);
    expect((await act(admin, reportId, { action: 'remove', rule: 'hate' })).statusCode).toBe(200);
    expect((await act(admin, '00000000-0000-4000-8000-000000000000', { action: 'dismiss' })).statusCode).toBe(404);
    expect((await act(admin, 'nope', { action: 'dismiss' })).statusCode).toBe(400);
  });
});

describe('evidence retention', () => {
  it('purges evidence and the photo copy 12 months after the report was closed', async () => {
    const admin = await t.member('Ada Admin', { admin: true });
    const { sender, a, mixerId, lineId } = await room();
    await t.database.db
      .update(profiles)
      .set({ avatarUrl: `${sender.id}/p.webp` })
      .where(sql`id = ${sender.id}`);
    await t.deps.storage.put(`${sender.id}/p.webp`, Buffer.from('x'), 'image/webp');
    const reportId = (await reportLine(a, { roomId: mixerId, messageId: lineId })).json().id;
    await act(admin, reportId, { action: 'dismiss' });
    expect(await purgeOldEvidence(t.app, new Date())).toBe(0);
    await t.database.db.execute(sql`update reports set resolved_at = now() - interval '13 months' where id = ${reportId}`);
    expect(await purgeOldEvidence(t.app, new Date())).toBe(1);
    const [row] = rowsOf<Json>(
      await t.database.db.execute(sql`select evidence, evidence_photo_key, details from reports where id = ${reportId}`),
    );
    expect(row).toEqual({ evidence: null, evidence_photo_key: null, details: 'Not ok' });
    expect(await t.deps.storage.get(`evidence/${reportId}/photo`)).toBeNull();
  });

  it('clears the line quoted in a decision 12 months after its report was closed; the decision stays', async () => {
    const admin = await t.member('Ada Admin', { admin: true });
    const { sender, a, mixerId, lineId } = await room();
    const reportId = (await reportLine(a, { roomId: mixerId, messageId: lineId })).json().id;
    const actionId = (await act(admin, reportId, { action: 'warn', rule: 'hate' })).json().actionId;
    const quote = async () =>
      rowsOf<Json>(await t.database.db.execute(sql`select quote, rule from moderation_actions where id = ${actionId}`))[0];
    await purgeOldEvidence(t.app, new Date());
    expect(await quote()).toEqual({ quote: 'you are pathetic', rule: 'hate' });
    await t.database.db.execute(sql`update reports set resolved_at = now() - interval '13 months' where id = ${reportId}`);
    expect(await purgeOldEvidence(t.app, new Date())).toBe(1);
    expect(await quote()).toEqual({ quote: null, rule: 'hate' });
    expect((await get(sender, '/api/moderation/mine')).json().actions[0]).toMatchObject({ id: actionId, quote: null, rule: 'hate' });
  });

  it('the appeal link’s routes are limited per client address, with a 429 and Retry-After', async () => {
    const token = encodeURIComponent(appealToken(t.app, '00000000-0000-4000-8000-000000000001'));
    const read = (remoteAddress: string) => t.request({ method: 'GET', url: `/api/appeals/link?token=${token}`, remoteAddress });
    for (let i = 0; i < APPEAL_LINK_READS[0].limit; i++) expect((await read('198.51.100.7')).statusCode).toBe(403);
    const refused = await read('198.51.100.7');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await read('198.51.100.8')).statusCode).toBe(403);
    const send = (remoteAddress: string) =>
      t.request({
        method: 'POST',
        url: '/api/appeals/link',
        remoteAddress,
        payload: { token: `${decodeURIComponent(token)}x`, text: 'Please look again.' },
      });
    for (let i = 0; i < APPEAL_LINK_SENDS[0].limit; i++) expect((await send('198.51.100.9')).statusCode).toBe(403);
    expect((await send('198.51.100.9')).statusCode).toBe(429);
    expect((await send('198.51.100.10')).statusCode).toBe(403);
  });

  it('a token from another action or an old one is not an appeal link', async () => {
    const token = appealToken(t.app, '00000000-0000-4000-8000-000000000000');
    expect((await get(undefined, `/api/appeals/link?token=${encodeURIComponent(token)}`)).statusCode).toBe(403);
  });
});
