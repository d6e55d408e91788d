import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../../shared/realtime/events';
import { HOST_MESSAGES, HOST_TEXTS, type HostView } from '../../../shared/schemas/host';
import { MIXER_MESSAGES } from '../../../shared/schemas/mixers';
import { mixerMemberships, mixerMessages, mixers } from '../../db/schema';
import { rowsOf } from '../../lib/sql';
import type { Member } from '../../../../tests/helpers/mixer-fixtures';
import { setupTestApp } from '../../../../tests/helpers/test-app';
import { runHost } from './service';

const t = setupTestApp();
const MIN = 60_000;

/** A live hour-long mixer that started `minutesAgo` ago, with its icebreaker, and these members joined at the start. */
async function liveMixer(minutesAgo: number, members: Member[], topic = 'Board games') {
  const startsAt = new Date(Date.now() - minutesAgo * MIN);
  const [m] = await t.database.db
    .insert(mixers)
    .values({ title: 'Board Game Natter', topic, status: 'live', startsAt, endsAt: new Date(startsAt.getTime() + 60 * MIN) })
    .returning({ id: mixers.id });
  await t.database.db.insert(mixerMessages).values({ mixerId: m.id, kind: 'icebreaker', body: 'Which game?', createdAt: startsAt });
  if (members.length)
    await t.database.db.insert(mixerMemberships).values(members.map((u) => ({ mixerId: m.id, userId: u.id, joinedAt: startsAt })));
  return m.id;
}

const lines = async (mixerId: string) =>
  rowsOf<{ kind: string; body: string; sender_id: string | null }>(
    await t.database.db.execute(sql`select kind, body, sender_id from mixer_messages where mixer_id = ${mixerId} order by created_at, id`),
  );

function collect() {
  const events: { room: string; event: ServerEvent }[] = [];
  return { events, publish: (room: string, event: ServerEvent) => void events.push({ room, event }) };
}

const view = (m: Member, mixerId: string) => t.request({ method: 'GET', url: `/api/mixers/${mixerId}/host`, cookie: m.cookie });
const vote = (m: Member, pollId: string, option: unknown) =>
  t.request({ method: 'POST', url: `/api/host/polls/${pollId}/vote`, cookie: m.cookie, payload: { option } });
const nudge = (m: Member, mixerId: string, action: string) =>
  t.request({ method: 'POST', url: `/api/mixers/${mixerId}/host/nudge`, cookie: m.cookie, payload: { action } });

let maya: Member;
let rhys: Member;
let sam: Member;
let outsider: Member;
let admin: Member;

beforeAll(async () => {
  maya = await t.member('Maya Okafor');
  rhys = await t.member('Rhys Llewellyn');
  sam = await t.member('Sam Patel');
  outsider = await t.member('Olu Outsider');
  admin = await t.member('Ada Admin', { admin: true });
});

describe('the host in a room', () => {
  it('posts the halfway poll once; participants vote once and see live results; others cannot', async () => {
    const mixerId = await liveMixer(31, [maya, rhys, sam]);
    const { events, publish } = collect();
    const now = new Date();
    const [first, second] = await Promise.all([runHost(t.database.db, now, publish), runHost(t.database.db, now, publish)]);
    expect([...first.posted, ...second.posted].filter((p) => p.mixerId === mixerId).map((p) => p.type)).toEqual(['game']);

    const posted = await lines(mixerId);
    const game = posted.filter((l) => l.body.startsWith(HOST_TEXTS.pollPrefix));
    expect(game).toHaveLength(1);
    expect(game[0]).toMatchObject({ kind: 'system', sender_id: null });
    expect(events.some((e) => e.room === `mixer:${mixerId}` && e.event.type === 'host.poll')).toBe(true);

    const before = (await view(maya, mixerId)).json() as HostView;
    expect(before.polls).toHaveLength(1);
    const poll = before.polls[0];
    expect(poll.total).toBe(0);
    expect(poll.myVote).toBeNull();
    expect(poll.open).toBe(true);

    const voted = await vote(maya, poll.id, 1);
    expect(voted.statusCode).toBe(200);
    const after = voted.json() as HostView;
    expect(after.polls[0].options[1].votes).toBe(1);
    expect(after.polls[0].myVote).toBe(1);

    // Twice: a clear 409, the first vote kept.
    const again = await vote(maya, poll.id, 0);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(HOST_MESSAGES.alreadyVoted);
    expect(((await view(maya, mixerId)).json() as HostView).polls[0].options.map((o) => o.votes)).toEqual(
      poll.options.map((_, i) => (i === 1 ? 1 : 0)),
    );

    // Rhys sees Maya's vote counted.
    expect(((await view(rhys, mixerId)).json() as HostView).polls[0].total).toBe(1);

    // Not a participant: 403; anonymous: 401; unknown poll 404; malformed 400; an answer that is not there 400.
    expect((await vote(outsider, poll.id, 0)).statusCode).toBe(403);
    expect((await view(outsider, mixerId)).statusCode).toBe(403);
    expect((await t.request({ method: 'POST', url: `/api/host/polls/${poll.id}/vote`, payload: { option: 0 } })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: `/api/mixers/${mixerId}/host` })).statusCode).toBe(401);
    expect((await vote(rhys, '00000000-0000-4000-8000-000000000000', 0)).statusCode).toBe(404);
    expect((await vote(rhys, 'not-a-poll', 0)).statusCode).toBe(400);
    expect((await vote(rhys, poll.id, 'yes')).statusCode).toBe(400);
    expect((await vote(rhys, poll.id, 9)).statusCode).toBe(400);
    expect((await view(rhys, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it("a blocked member's vote is not counted for the member who blocked them (nor the other way round)", async () => {
    const mixerId = await liveMixer(32, [maya, rhys, sam]);
    await runHost(t.database.db, new Date(), () => {});
    const pollId = ((await view(maya, mixerId)).json() as HostView).polls[0].id;
    await t.database.db.execute(sql`insert into blocks (blocker_id, blocked_id) values (${maya.id}, ${rhys.id})`);
    expect((await vote(rhys, pollId, 0)).statusCode).toBe(200);
    expect((await vote(sam, pollId, 0)).statusCode).toBe(200);
    expect(((await view(maya, mixerId)).json() as HostView).polls[0].total).toBe(1);
    expect(((await view(rhys, mixerId)).json() as HostView).polls[0].total).toBe(2);
    await t.database.db.execute(sql`delete from blocks where blocker_id = ${maya.id}`);
  });

  it('a member a moderator muted cannot vote: a vote is a say in the room, like a reaction', async () => {
    const muted = await t.member('Mo Muted');
    const mixerId = await liveMixer(32, [maya, muted]);
    await runHost(t.database.db, new Date(), () => {});
    const pollId = ((await view(maya, mixerId)).json() as HostView).polls[0].id;
    await t.database.db.execute(
      sql`insert into moderation_actions (member_id, action, rule, days, ends_at) values (${muted.id}, 'mute', 'hate', 1, now() + interval '1 day')`,
    );
    const refused = await vote(muted, pollId, 0);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toMatch(/^You're muted in mixers until /);
    expect(((await view(maya, mixerId)).json() as HostView).polls[0].total).toBe(0);
  });

  it('voting closes when the mixer ends (409), and the results stay in the history', async () => {
    const mixerId = await liveMixer(33, [maya, rhys]);
    await runHost(t.database.db, new Date(), () => {});
    const pollId = ((await view(maya, mixerId)).json() as HostView).polls[0].id;
    expect((await vote(maya, pollId, 0)).statusCode).toBe(200);
    await t.database.db.execute(sql`update mixers set status = 'ended' where id = ${mixerId}`);
    const late = await vote(rhys, pollId, 0);
    expect(late.statusCode).toBe(409);
    expect(late.json().error.message).toBe(HOST_MESSAGES.pollClosed);
    const closed = (await view(rhys, mixerId)).json() as HostView;
    expect(closed.polls[0]).toMatchObject({ open: false, total: 1 });
  });

  it('a quiet room gets a prompt from the topic, once however many runs; a quiet member gets one private nudge', async () => {
    const mixerId = await liveMixer(11, [maya, rhys]);
    await t.database.db
      .insert(mixerMessages)
      .values({ mixerId, senderId: rhys.id, body: 'Hello all', createdAt: new Date(Date.now() - 6 * MIN) });
    const { events, publish } = collect();
    const now = new Date();
    await Promise.all([runHost(t.database.db, now, publish), runHost(t.database.db, now, publish), runHost(t.database.db, now, publish)]);
    const host = (await lines(mixerId)).filter((l) => l.kind === 'system');
    expect(host).toHaveLength(1);
    expect(host[0].sender_id).toBeNull();
    expect(host[0].body).toMatch(/\?$/);

    // Maya (no line in 11 minutes) is nudged, privately; Rhys (who wrote) is not.
    const nudges = events.filter((e) => e.event.type === 'host.nudge');
    expect(nudges.map((e) => e.room)).toEqual([`user:${maya.id}`]);
    const mine = ((await view(maya, mixerId)).json() as HostView).nudge;
    expect(mine?.prompt).toBe(host[0].body);
    // A reply to the room's current prompt: it takes the prompt up (quoted, cut at a word when long).
    expect(mine?.reply).toContain(`‘${host[0].body.slice(0, 30)}`);
    expect(((await view(rhys, mixerId)).json() as HostView).nudge).toBeNull();

    // One tap sends it as Maya's own line, once.
    const sent = await nudge(maya, mixerId, 'send');
    expect(sent.statusCode).toBe(200);
    expect(sent.json().message).toMatchObject({ kind: 'member', body: mine?.reply, sender: { id: maya.id } });
    expect((await nudge(maya, mixerId, 'send')).statusCode).toBe(404);
    expect(((await view(maya, mixerId)).json() as HostView).nudge).toBeNull();
    expect((await nudge(outsider, mixerId, 'dismiss')).statusCode).toBe(403);
    expect((await nudge(maya, mixerId, 'shout')).statusCode).toBe(400);

    // Never a second nudge, and no second quiet prompt within 5 minutes.
    await runHost(t.database.db, new Date(now.getTime() + 2 * MIN), publish);
    expect(events.filter((e) => e.event.type === 'host.nudge')).toHaveLength(1);
    expect((await lines(mixerId)).filter((l) => l.kind === 'system')).toHaveLength(1);
  });

  it('a dismissed nudge goes away and is not sent', async () => {
    const mixerId = await liveMixer(12, [sam]);
    await runHost(t.database.db, new Date(), () => {});
    expect(((await view(sam, mixerId)).json() as HostView).nudge).not.toBeNull();
    expect((await nudge(sam, mixerId, 'dismiss')).json()).toEqual({ message: null });
    expect(((await view(sam, mixerId)).json() as HostView).nudge).toBeNull();
    expect((await lines(mixerId)).filter((l) => l.kind === 'member')).toHaveLength(0);
  });

  it('a nudge ends once the member writes a line of their own', async () => {
    const mixerId = await liveMixer(13, [sam]);
    await runHost(t.database.db, new Date(), () => {});
    expect(((await view(sam, mixerId)).json() as HostView).nudge).not.toBeNull();
    const said = await t.request({
      method: 'POST',
      url: `/api/mixers/${mixerId}/messages`,
      cookie: sam.cookie,
      payload: { body: 'Hello all, I nearly missed this one', clientKey: 'sam-own-words-1' },
    });
    expect(said.statusCode).toBe(201);
    expect(((await view(sam, mixerId)).json() as HostView).nudge).toBeNull();
  });

  it('wraps up ten minutes before the end with the wording of the issue', async () => {
    const mixerId = await liveMixer(51, [maya]);
    await t.database.db.execute(sql`insert into mixer_hosts (mixer_id, game_at, slots_done) values (${mixerId}, now(), 2)`);
    await runHost(t.database.db, new Date(), () => {});
    expect((await lines(mixerId)).map((l) => l.body)).toContain(HOST_TEXTS.wrapUp);
  });
});

describe('admins', () => {
  it('switch the host off per mixer (audited): no host lines, no nudges; only admins may', async () => {
    const mixerId = await liveMixer(31, [maya, rhys]);
    const switchHost = (m: Member, enabled: unknown) =>
      t.request({ method: 'PUT', url: `/api/admin/mixers/${mixerId}/host`, cookie: m.cookie, payload: { enabled } });
    expect((await switchHost(maya, false)).statusCode).toBe(403);
    expect((await t.request({ method: 'PUT', url: `/api/admin/mixers/${mixerId}/host`, payload: { enabled: false } })).statusCode).toBe(
      401,
    );
    expect((await switchHost(admin, 'nope')).statusCode).toBe(400);
    const off = await switchHost(admin, false);
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ mixerId, enabled: false });

    const run = await runHost(t.database.db, new Date(), () => {});
    expect(run.posted.filter((p) => p.mixerId === mixerId)).toEqual([]);
    expect(run.nudged.filter((p) => p.mixerId === mixerId)).toEqual([]);
    expect((await lines(mixerId)).filter((l) => l.kind === 'system')).toEqual([]);
    expect(((await view(maya, mixerId)).json() as HostView).enabled).toBe(false);

    const audit = rowsOf<{ action: string; actor_id: string }>(
      await t.database.db.execute(sql`select action, actor_id from audit_log where target = ${mixerId}`),
    );
    expect(audit).toEqual([{ action: 'host.off', actor_id: admin.id }]);
    expect((await t.request({ method: 'GET', url: '/api/admin/host', cookie: admin.cookie })).json().disabledMixers as string[]).toContain(
      mixerId,
    );
    expect(
      (
        await t.request({
          method: 'PUT',
          url: '/api/admin/mixers/00000000-0000-4000-8000-000000000000/host',
          cookie: admin.cookie,
          payload: { enabled: true },
        })
      ).statusCode,
    ).toBe(404);
  });

  it("edit a topic's prompts (audited, validated), and the host asks them", async () => {
    const put = (m: Member, topic: string, payload: Record<string, unknown>) =>
      t.request({ method: 'PUT', url: `/api/admin/host/prompts/${encodeURIComponent(topic)}`, cookie: m.cookie, payload });
    const overview = await t.request({ method: 'GET', url: '/api/admin/host', cookie: admin.cookie });
    expect(overview.statusCode).toBe(200);
    const general = (overview.json().topics as { topic: string; prompts: string[]; custom: boolean }[]).find((x) => x.topic === 'General');
    expect(general?.prompts.length).toBeGreaterThanOrEqual(6);
    expect((await t.request({ method: 'GET', url: '/api/admin/host', cookie: maya.cookie })).statusCode).toBe(403);

    expect((await put(maya, 'Pottery', { prompts: ['x?'] })).statusCode).toBe(403);
    const empty = await put(admin, 'Pottery', { prompts: [] });
    expect(empty.statusCode).toBe(400);
    expect(JSON.stringify(empty.json())).toContain(HOST_MESSAGES.promptRequired);
    expect((await put(admin, 'Pottery', { prompts: ['x'.repeat(301)] })).statusCode).toBe(400);
    expect((await put(admin, 'Not a topic at all', { prompts: ['Hello?'] })).statusCode).toBe(404);

    const prompts = ['What was the first thing you made on a wheel?', 'Glaze or raw clay?'];
    const saved = await put(admin, 'Pottery', { prompts });
    expect(saved.statusCode).toBe(200);
    const audit = rowsOf<{ action: string; actor_id: string; details: string }>(
      await t.database.db.execute(sql`select action, actor_id, details from audit_log where target = 'Pottery'`),
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'host.prompts', actor_id: admin.id });
    expect(JSON.parse(audit[0].details).prompts).toEqual(prompts);

    const mixerId = await liveMixer(6, [rhys], 'Pottery');
    await runHost(t.database.db, new Date(), () => {});
    expect((await lines(mixerId)).filter((l) => l.kind === 'system').map((l) => l.body)).toEqual([prompts[0]]);
  });
});

it('a chat non-member gets the chat wording', async () => {
  const mixerId = await liveMixer(5, [maya]);
  const res = await view(outsider, mixerId);
  expect(res.json().error.message).toBe(MIXER_MESSAGES.chatMembersOnly);
});
