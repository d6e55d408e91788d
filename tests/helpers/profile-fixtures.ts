/** Test-only helpers for the settings API and browser tests. */
import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../src/server/db/client';
import { directMessages, matches, mixerMemberships, mixers, profiles, user } from '../../src/server/db/schema';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32Decode(input: string): Buffer {
  const clean = input.replace(/=+$/, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    const idx = BASE32.indexOf(ch);
    if (idx < 0) throw new Error(`not base32: ${ch}`);
    value = (value << 5) | idx;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** The 6-digit TOTP (RFC 6238, SHA-1, 30 s) an authenticator app would show for a base32 secret. */
export function totpCode(base32Secret: string, at = Date.now()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const mac = createHmac('sha1', base32Decode(base32Secret)).update(counter).digest();
  const offset = mac[mac.length - 1] & 0xf;
  const n = (mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(n).padStart(6, '0');
}

const ANSWER = 'Long walks along the canal with a flask of tea and a podcast about old maps of London.';

/** Marks a member's profile complete with plausible answers (the onboarding gate lets them through). */
export async function completeProfile(db: Db, userId: string, extra: Partial<typeof profiles.$inferInsert> = {}) {
  const [u] = await db.select({ name: user.name }).from(user).where(eq(user.id, userId));
  await db.insert(profiles).values({ id: userId }).onConflictDoNothing();
  await db
    .update(profiles)
    .set({
      fullName: u.name,
      dob: '1994-05-17',
      genderIdentities: ['Woman'],
      lookingFor: ['Dating'],
      interests: ['Hiking'],
      smallJoy: ANSWER,
      loveToTalkAbout: ANSWER,
      valueInRelationships: ANSWER,
      sharedExperience: ANSWER,
      cityRegion: 'Bristol',
      countryCode: 'GB',
      tz: 'Europe/London',
      onboardingCompleted: true,
      onboardingStep: 10,
      ...extra,
    })
    .where(eq(profiles.id, userId));
  await db.update(user).set({ onboardingComplete: true }).where(eq(user.id, userId));
}

/** A mixer both members joined (live unless told), a match between them and a message each way. */
export async function sharedHistory(
  db: Db,
  a: string,
  b: string,
  opts: { status?: string; startsInMinutes?: number; title?: string } = {},
): Promise<{ mixerId: string; matchId: string }> {
  const startsAt = new Date(Date.now() + (opts.startsInMinutes ?? -10) * 60_000);
  const [mixer] = await db
    .insert(mixers)
    .values({
      title: opts.title ?? 'Sunday Roast Appreciation Society',
      topic: 'Food',
      status: opts.status ?? 'live',
      startsAt,
      endsAt: new Date(startsAt.getTime() + 90 * 60_000),
    })
    .returning({ id: mixers.id });
  await db.insert(mixerMemberships).values([
    { mixerId: mixer.id, userId: a },
    { mixerId: mixer.id, userId: b },
  ]);
  const [p1, p2] = a < b ? [a, b] : [b, a];
  const [match] = await db.insert(matches).values({ profile1Id: p1, profile2Id: p2, mixerId: mixer.id }).returning({ id: matches.id });
  await db.insert(directMessages).values([
    { matchId: match.id, senderId: a, recipientId: b, body: 'Hello from the roast mixer!' },
    { matchId: match.id, senderId: b, recipientId: a, body: 'Hi! Gravy first or last?' },
  ]);
  return { mixerId: mixer.id, matchId: match.id };
}
