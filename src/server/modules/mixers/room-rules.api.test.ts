import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createMixer, joinMixer, matchedPair, send } from '../../../../tests/helpers/mixer-fixtures';
import { setupTestApp } from '../../../../tests/helpers/test-app';
import { CHAT_RATE_LIMIT, MIXER_MESSAGES } from '../../../shared/schemas/mixers';
import { LINE_MESSAGES } from '../../../shared/schemas/chat';

/**
 * The room's rules hold on every way in, not only on sending (review of issues 29–30): who reaches
 * the detectors, what a muted member or a moderated line can still do, and what an unsent or
 * removed line leaves behind.
 */
const t = setupTestApp();

type M = { id: string; cookie: string };
const post = (m: M, mixerId: string, payload: Record<string, unknown>) =>
  t.request({ method: 'POST', url: `/api/mixers/${mixerId}/messages`, cookie: m.cookie, payload });
const edit = (m: M, mixerId: string, lineId: string, body: string) =>
  t.request({ method: 'PATCH', url: `/api/mixers/${mixerId}/messages/${lineId}`, cookie: m.cookie, payload: { body } });
const react = (m: M, mixerId: string, lineId: string) =>
  t.request({ method: 'POST', url: `/api/mixers/${mixerId}/messages/${lineId}/reactions`, cookie: m.cookie, payload: { emoji: '👍' } });

async function room() {
  const a = await t.member('Maya Okafor');
  const b = await t.member('Rhys Llewellyn');
  const mixerId = await createMixer(t);
  await joinMixer(t, mixerId, [a.id, b.id]);
  return { a, b, mixerId };
}

describe('the room keeps its rules on every way in', () => {
  it('someone outside the room gets 403 before any detector reads their words: "@Name" tells them nothing of who is in it', async () => {
    const { a, mixerId } = await room();
    const line = (await post(a, mixerId, { body: 'Hello all' })).json();
    const outsider = await t.member('Otto Outside');
    for (const body of ['@Rhys are you here?', '@Nobodyatall are you here?']) {
      const sent = await post(outsider, mixerId, { body });
      expect(sent.statusCode, body).toBe(403);
      expect(sent.json().error.message).toBe(MIXER_MESSAGES.chatMembersOnly);
      const changed = await edit(outsider, mixerId, line.id, body);
      expect(changed.statusCode, body).toBe(403);
    }
  });

  it('a muted member can neither edit nor react; a line moderators hid or removed can be neither edited nor reacted to', async () => {
    const { a, b, mixerId } = await room();
    const mine = (await post(a, mixerId, { body: 'A line I may want to fix' })).json();
    const theirs = (await post(b, mixerId, { body: 'A line to react to' })).json();
    await t.database.db.execute(
      sql`insert into moderation_actions (member_id, action, rule, days, ends_at) values (${a.id}, 'mute', 'respect', 7, now() + interval '7 days')`,
    );
    const fixed = await edit(a, mixerId, mine.id, 'A line I fixed anyway');
    expect(fixed.statusCode).toBe(403);
    expect(fixed.json().error.message).toMatch(/muted/i);
    expect((await react(a, mixerId, theirs.id)).statusCode).toBe(403);
    await t.database.db.execute(sql`update moderation_actions set reversed_at = now() where member_id = ${a.id}`);

    await t.database.db.execute(sql`update mixer_messages set hidden_at = now() where id = ${mine.id}::uuid`);
    expect((await edit(a, mixerId, mine.id, 'Rewritten while hidden')).statusCode).toBe(404);
    await t.database.db.execute(sql`update mixer_messages set removed_at = now() where id = ${theirs.id}::uuid`);
    expect((await react(a, mixerId, theirs.id)).statusCode).toBe(404);
    const bodies = (await t.database.db.execute(sql`select body from mixer_messages where mixer_id = ${mixerId}::uuid`)) as unknown as {
      rows: { body: string }[];
    };
    expect(bodies.rows.map((r) => r.body).sort()).toEqual(['A line I may want to fix', 'A line to react to']);
  });

  it('edits are limited like sends', async () => {
    const { a, mixerId } = await room();
    const line = (await post(a, mixerId, { body: 'Version 0' })).json();
    const codes: number[] = [];
    for (let i = 1; i <= CHAT_RATE_LIMIT.limit + 2; i++) codes.push((await edit(a, mixerId, line.id, `Version ${i}`)).statusCode);
    expect(codes.slice(0, CHAT_RATE_LIMIT.limit)).toEqual(Array(CHAT_RATE_LIMIT.limit).fill(200));
    const refused = await edit(a, mixerId, line.id, 'One edit too many');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toBe(LINE_MESSAGES.editRateLimited);
  });

  it('an unsent line takes its mention with it: off the badge, out of the line', async () => {
    const { a, b, mixerId } = await room();
    const line = (await post(a, mixerId, { body: '@Rhys shall we start?', mentions: [b.id] })).json();
    const read = async () => (await t.request({ method: 'GET', url: `/api/mixers/${mixerId}/read`, cookie: b.cookie })).json();
    expect((await read()).mentions).toBe(1);
    expect((await t.request({ method: 'DELETE', url: `/api/mixers/${mixerId}/messages/${line.id}`, cookie: a.cookie })).statusCode).toBe(
      200,
    );
    expect(await read()).toMatchObject({ mentions: 0, unread: 0 });
    const history = (await t.request({ method: 'GET', url: `/api/mixers/${mixerId}/messages`, cookie: b.cookie })).json();
    expect(history.items.find((l: { id: string }) => l.id === line.id).mentions ?? []).toEqual([]);
  });

  it('a private message moderators removed is never quoted by a reply', async () => {
    const { a, b, matchId } = await matchedPair(t);
    const removed = (await send(t, a, matchId, 'Something that was removed')).json().message;
    await t.database.db.execute(sql`update direct_messages set removed_at = now() where id = ${removed.id}::uuid`);
    const reply = await t.request({
      method: 'POST',
      url: `/api/conversations/${matchId}/messages`,
      cookie: b.cookie,
      payload: { body: 'Replying to it anyway', replyToId: removed.id },
    });
    expect(reply.body).not.toContain('Something that was removed');
  });
});
