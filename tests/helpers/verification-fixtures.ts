import { sql } from 'drizzle-orm';
import { face, type Who } from '../fixtures/faces';
import type { TestApp } from './test-app';
import { completeProfile } from './profile-fixtures';
import type { FaceEngine } from '../../src/server/modules/verification/engine';
import { encryptVector, METHOD } from '../../src/server/modules/verification/service';

/** A multipart body with files (JPEG) and fields, as the browser sends it. */
export function multipart(parts: { name: string; value?: string; file?: Buffer }[]) {
  const boundary = '----fancy-verify';
  const chunks: Buffer[] = [];
  for (const p of parts) {
    if (p.file) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename="f.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
        ),
      );
      chunks.push(p.file, Buffer.from('\r\n'));
    } else {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const rows = <T>(r: unknown) => (r as { rows: T[] }).rows;

/** A check as the browser sends it: the challenge, each frame's [step, ms], the frames. */
export function checkBody(challengeId: string, c: { frames: Buffer[]; capture?: [number, number][] }) {
  const capture = c.capture ?? c.frames.map((_, i): [number, number] => [0, i * 200]);
  return multipart([
    { name: 'challengeId', value: challengeId },
    { name: 'capture', value: JSON.stringify(capture) },
    ...c.frames.map((file) => ({ name: 'frame', file })),
  ]);
}

/** A new main photo, as the profile page uploads it. */
export const uploadMainPhoto = (t: TestApp, cookie: string, file: Buffer) =>
  t.request({ method: 'POST', url: '/api/profile/avatar', cookie, ...multipart([{ name: 'file', file }]) });

/**
 * The test renders a capture in a few seconds, faster than a member films it: move the challenge's
 * issue back (its expiry) so the capture fits in the time since (the server refuses a capture
 * longer than that). The UTC day it was issued on (created_at) is left alone.
 */
export async function filmedSince(t: TestApp, challengeId: string, seconds = 15) {
  await t.database.db.execute(
    sql`update verification_challenges set expires_at = expires_at - ${`${seconds} seconds`}::interval where id = ${challengeId}`,
  );
}

/**
 * A verified member with a real face: `main` as the profile picture, `extras` as the other
 * photos, and the badge with the face template the library computes from `selfie` (what a check
 * keeps), checked against the current main photo.
 */
export async function verifiedMember(t: TestApp, name: string, opts: { main: Who; extras?: (Who | Buffer)[]; selfie?: Who }) {
  const m = await t.member(name);
  await completeProfile(t.database.db, m.id);
  const avatar = await uploadMainPhoto(t, m.cookie, await face(opts.main));
  if (avatar.statusCode !== 200) throw new Error(`avatar upload: ${avatar.body}`);
  if (opts.extras?.length) {
    const files = await Promise.all(opts.extras.map((w) => (typeof w === 'string' ? face(w) : w)));
    const res = await t.request({
      method: 'POST',
      url: '/api/profile/photos',
      cookie: m.cookie,
      ...multipart(files.map((file) => ({ name: 'files', file }))),
    });
    if (res.statusCode !== 200) throw new Error(`photos upload: ${res.body}`);
  }
  const { images } = await t.app.faces.analyse([await face(opts.selfie ?? opts.main)]);
  const template = encryptVector(t.deps.config.verificationKey, images[0].faces[0].embedding);
  await t.database.db.execute(sql`insert into member_verifications (user_id, status, method, model_version, face_vector, photo_key, verified_at)
    select ${m.id}, 'verified', ${METHOD}, 'test', ${template}, avatar_url, now() from profiles where id = ${m.id}`);
  return m;
}

/**
 * An age review as a check below the challenge age leaves it (service.recordVerdict): a pending
 * template and five kept frames. Seeded, because no shipped face under 25 renders a blink the
 * models read (decision 031); the age rule itself is unit-tested.
 */
export async function seedAgeReview(
  env: { db: TestApp['database']['db']; storage: TestApp['deps']['storage']; faces: FaceEngine; verificationKey: string },
  userId: string,
) {
  const photo = await face('E');
  const { images } = await env.faces.analyse([photo]);
  const template = encryptVector(env.verificationKey, images[0].faces[0].embedding);
  await env.db.execute(sql`insert into member_verifications (user_id, status, method, model_version, face_vector)
    values (${userId}, 'pending', ${METHOD}, 'test', ${template})`);
  const keys = [0, 1, 2, 3, 4].map((i) => `${userId}/verification-review-seeded-${i}.jpg`);
  for (const key of keys) await env.storage.put(key, photo, 'image/jpeg');
  await env.db.execute(sql`insert into verification_reviews (user_id, kind, scores, frame_keys)
    values (${userId}, 'age', ${JSON.stringify({ age: images[0].faces[0].age })}::jsonb, ${sql`${`{${keys.join(',')}}`}::text[]`})`);
}

/** The member's main photo key and other photo keys, in order. */
export async function photoKeys(t: TestApp, userId: string) {
  const [p] = rows<{ avatar_url: string | null; photos: string[] | string }>(
    await t.database.db.execute(sql`select avatar_url, photos from profiles where id = ${userId}`),
  );
  const photos = typeof p.photos === 'string' ? p.photos.replace(/[{}]/g, '').split(',').filter(Boolean) : p.photos;
  return { main: p.avatar_url, photos };
}

export async function verificationRow(t: TestApp, userId: string) {
  const [v] = rows<{ status: string; method: string; photo_key: string | null; revoked_reason: string | null }>(
    await t.database.db.execute(sql`select status, method, photo_key, revoked_reason from member_verifications where user_id = ${userId}`),
  );
  return v;
}

/** A member with a complete profile whose main photo is the shipped face `photo`. */
export async function memberWithPhoto(t: TestApp, name: string, photo: Who = 'A3') {
  const m = await t.member(name);
  await completeProfile(t.database.db, m.id);
  const res = await uploadMainPhoto(t, m.cookie, await face(photo));
  if (res.statusCode !== 200) throw new Error(`avatar upload for ${name}: ${res.statusCode} ${res.body}`);
  return m;
}
