import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { face } from '../../../../tests/fixtures/faces';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import { photoKeys, uploadMainPhoto, verificationRow, verifiedMember } from '../../../../tests/helpers/verification-fixtures';

/**
 * Issue 21: changing the main photo later re-checks it against the member's verification,
 * whichever way it changes; a photo must match the verified face as closely as a check that
 * verifies on its own (issue 31), or the badge goes. Real faces (tests/fixtures/faces): A3 recropped
 * is the same photograph cut again; C is another person.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const rows = <T>(r: unknown) => (r as { rows: T[] }).rows;
const status = async (cookie: string) => (await t.request({ method: 'GET', url: '/api/verification', cookie })).json().status;
const makeMain = (cookie: string, key: string) =>
  t.request({ method: 'POST', url: '/api/me/profile/photos/main', cookie, payload: { key } });
const upload = (cookie: string, file: Buffer) => uploadMainPhoto(t, cookie, file);
const revokes = async (userId: string) =>
  rows<{ n: number }>(
    await t.database.db.execute(sql`select count(*)::int as n from audit_log where action = 'verification.revoke' and target = ${userId}`),
  )[0].n;

describe('the badge follows the main photo', () => {
  it('upload: a new photo of the verified face keeps the badge (and becomes the checked photo); someone else removes it', async () => {
    const m = await verifiedMember(t, 'Ulla Upload', { main: 'A3' });
    const same = await upload(m.cookie, await face('A3', { recrop: true }));
    expect(same.statusCode).toBe(200);
    expect((await status(m.cookie)).state).toBe('verified');
    expect((await verificationRow(t, m.id)).photo_key).toBe((await photoKeys(t, m.id)).main);

    expect((await upload(m.cookie, await face('C'))).statusCode).toBe(200);
    expect(await status(m.cookie)).toMatchObject({ state: 'unverified', revoked: true });
    expect(await verificationRow(t, m.id)).toMatchObject({ status: 'revoked', revoked_reason: 'main_photo_changed' });
    expect(await revokes(m.id)).toBe(1);
  });

  it('make main: another photo of the verified face keeps the badge; a photo of someone else removes it', async () => {
    const m = await verifiedMember(t, 'Mia Main', { main: 'A3', extras: [await face('A3', { recrop: true }), 'C'] });
    const before = await photoKeys(t, m.id);
    const res = await makeMain(m.cookie, before.photos[0]);
    expect(res.statusCode).toBe(200);
    expect((await photoKeys(t, m.id)).main).toBe(before.photos[0]);
    expect((await status(m.cookie)).state).toBe('verified');
    expect((await verificationRow(t, m.id)).photo_key).toBe(before.photos[0]);

    expect((await makeMain(m.cookie, before.photos[1])).statusCode).toBe(200);
    expect(await status(m.cookie)).toMatchObject({ state: 'unverified', revoked: true });
    expect(await revokes(m.id)).toBe(1);
    // Putting the old photo back does not bring the badge back: the member verifies again.
    expect((await makeMain(m.cookie, before.photos[0])).statusCode).toBe(200);
    expect((await status(m.cookie)).state).toBe('unverified');
  });

  it('reorder: the other photos move, the main photo stays, so nothing is re-checked and the badge stays', async () => {
    const m = await verifiedMember(t, 'Rae Reorder', { main: 'A3', extras: ['A4', 'C'], selfie: 'A1' });
    const before = await photoKeys(t, m.id);
    const res = await t.request({
      method: 'PUT',
      url: '/api/me/profile/photos',
      cookie: m.cookie,
      payload: { order: [...before.photos].reverse() },
    });
    expect(res.statusCode).toBe(200);
    const after = await photoKeys(t, m.id);
    expect(after.photos).toEqual([...before.photos].reverse());
    expect(after.main).toBe(before.main);
    expect((await status(m.cookie)).state).toBe('verified');
    expect((await verificationRow(t, m.id)).photo_key).toBe(before.main);
  });

  it('remove the main photo: nothing is left to contradict the badge; the next photo made main is re-checked', async () => {
    const m = await verifiedMember(t, 'Del Main', { main: 'A3', extras: ['C'], selfie: 'A1' });
    const before = await photoKeys(t, m.id);
    expect((await t.request({ method: 'DELETE', url: '/api/profile/avatar', cookie: m.cookie })).statusCode).toBe(200);
    expect((await photoKeys(t, m.id)).main).toBeNull();
    expect((await status(m.cookie)).state).toBe('verified');
    expect((await verificationRow(t, m.id)).photo_key).toBeNull();

    expect((await makeMain(m.cookie, before.photos[0])).statusCode).toBe(200);
    expect(await status(m.cookie)).toMatchObject({ state: 'unverified', revoked: true });
  });

  it('any other way the main photo changes (the onboarding draft) is caught by the same re-check', async () => {
    const m = await verifiedMember(t, 'Dru Draft', { main: 'A3', extras: ['C'], selfie: 'A1' });
    const { photos } = await photoKeys(t, m.id);
    const res = await t.request({ method: 'PATCH', url: '/api/profile/draft', cookie: m.cookie, payload: { avatarUrl: photos[0] } });
    expect(res.statusCode).toBe(200);
    expect(await status(m.cookie)).toMatchObject({ state: 'unverified', revoked: true });
  });

  it('edits that leave the main photo alone never run the models', async () => {
    const m = await verifiedMember(t, 'Ned Nochange', { main: 'A3', selfie: 'A1' });
    const analyse = t.app.faces.analyse;
    let calls = 0;
    t.app.faces.analyse = (images) => {
      calls++;
      return analyse(images);
    };
    try {
      const res = await t.request({ method: 'PATCH', url: '/api/me/profile', cookie: m.cookie, payload: { bio: 'Tea, maps and canals.' } });
      expect(res.statusCode).toBe(200);
    } finally {
      t.app.faces.analyse = analyse;
    }
    expect(calls).toBe(0);
    expect((await status(m.cookie)).state).toBe('verified');
  });

  it('the data export lists the template as "a face template (not exportable as an image)", never its numbers', async () => {
    const m = await verifiedMember(t, 'Exa Export', { main: 'A3', selfie: 'A1' });
    const [v] = rows<{ face_vector: string }>(
      await t.database.db.execute(sql`select face_vector from member_verifications where user_id = ${m.id}`),
    );
    const res = await t.request({ method: 'GET', url: '/api/me/export', cookie: m.cookie });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('a face template (not exportable as an image)');
    expect(res.body).not.toContain(v.face_vector);
    expect(res.body).not.toContain(v.face_vector.split('.')[2].slice(0, 40));
  });
});
