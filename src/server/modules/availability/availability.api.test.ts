import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../../../tests/helpers/test-app';
import { AVAILABILITY_MESSAGES, type AvailabilityView, TOPIC_ASKS_MAX } from '../../../shared/availability';
import { predefinedInterests, profiles } from '../../db/schema';

const t = setupTestApp();

const URL = '/api/profile/availability';
const put = (cookie: string | undefined, payload: unknown) =>
  t.request({ method: 'PUT', url: URL, cookie, payload: payload as Record<string, unknown> });

describe('availability and topic asks', () => {
  it('answers 401 to anonymous callers and 403 to unverified members, and saves nothing', async () => {
    const una = await t.member('Una Verified', { verified: false });
    expect((await t.request({ method: 'GET', url: URL })).statusCode).toBe(401);
    expect((await put(undefined, { availability: ['mon-evening'] })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: URL, cookie: una.cookie })).statusCode).toBe(403);
    const res = await put(una.cookie, { availability: ['mon-evening'] });
    expect(res.statusCode).toBe(403);
    const [row] = await t.database.db.select({ a: profiles.availability }).from(profiles).where(eq(profiles.id, una.id));
    expect(row?.a ?? []).toEqual([]);
  });

  it('starts empty, then keeps slots in grid order and asks in my order, without duplicates', async () => {
    const m = await t.member('Ava Free');
    const empty = (await t.request({ method: 'GET', url: URL, cookie: m.cookie })).json() as AvailabilityView;
    expect(empty).toEqual({ availability: [], topicAsks: [], tz: 'Europe/London' });

    const res = await put(m.cookie, {
      availability: ['sat-morning', 'mon-evening', 'sat-morning', 'tue-evening'],
      topicAsks: ['Hiking', 'bouldering', 'Hiking'],
    });
    expect(res.statusCode).toBe(200);
    const saved = res.json() as AvailabilityView;
    expect(saved.availability).toEqual(['mon-evening', 'tue-evening', 'sat-morning']);
    expect(saved.topicAsks).toEqual(['Hiking', 'Bouldering']);
    expect((await t.request({ method: 'GET', url: URL, cookie: m.cookie })).json()).toEqual(saved);

    // One list alone leaves the other as it was.
    const asksOnly = (await put(m.cookie, { topicAsks: ['Indie films'] })).json() as AvailabilityView;
    expect(asksOnly).toMatchObject({ availability: ['mon-evening', 'tue-evening', 'sat-morning'], topicAsks: ['Indie films'] });
    const cleared = (await put(m.cookie, { availability: [] })).json() as AvailabilityView;
    expect(cleared).toMatchObject({ availability: [], topicAsks: ['Indie films'] });
  });

  it('refuses unknown slots, unknown or inactive topics, too many asks and empty bodies with clear messages', async () => {
    const m = await t.member('Bea Careful');
    await put(m.cookie, { availability: ['fri-evening'], topicAsks: ['Hiking'] });

    const badSlot = await put(m.cookie, { availability: ['fri-night'] });
    expect(badSlot.statusCode).toBe(400);
    expect(badSlot.json().error).toMatchObject({ code: 'validation', message: AVAILABILITY_MESSAGES.slotUnknown });

    const unknown = await put(m.cookie, { topicAsks: ['Hiking', 'Underwater basket weaving'] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toMatchObject({ code: 'validation', message: AVAILABILITY_MESSAGES.askUnknown });

    await t.database.db.update(predefinedInterests).set({ isActive: false }).where(eq(predefinedInterests.name, 'Bouldering'));
    const inactive = await put(m.cookie, { topicAsks: ['Bouldering'] });
    expect(inactive.json().error.message).toBe(AVAILABILITY_MESSAGES.askUnknown);
    await t.database.db.update(predefinedInterests).set({ isActive: true }).where(eq(predefinedInterests.name, 'Bouldering'));

    const tooMany = await put(m.cookie, {
      topicAsks: ['Hiking', 'Bouldering', 'Indie films', 'Yoga', 'Cooking', 'Poetry'].slice(0, TOPIC_ASKS_MAX + 1),
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.message).toBe(AVAILABILITY_MESSAGES.asksTooMany);

    const nothing = await put(m.cookie, {});
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().error.message).toBe(AVAILABILITY_MESSAGES.nothingToChange);

    const notAList = await put(m.cookie, { availability: 'mon-evening' });
    expect(notAList.statusCode).toBe(400);

    // Nothing already saved was lost.
    const kept = (await t.request({ method: 'GET', url: URL, cookie: m.cookie })).json() as AvailabilityView;
    expect(kept).toMatchObject({ availability: ['fri-evening'], topicAsks: ['Hiking'] });
  });

  it('is in the member data export', async () => {
    const m = await t.member('Cai Export');
    await put(m.cookie, { availability: ['sun-afternoon'], topicAsks: ['Hiking'] });
    const { buildExport } = await import('../settings/export');
    const data = await buildExport(t.deps, m.id);
    expect(data?.profiles).toMatchObject({ availability: ['sun-afternoon'], topicAsks: ['Hiking'] });
  });
});
