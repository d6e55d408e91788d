import { randomUUID } from 'node:crypto';
import { hashPassword } from 'better-auth/crypto';
import { like } from 'drizzle-orm';
import sharp from 'sharp';
import type { Storage } from '../../infra/storage/storage';
import type { Database } from '../client';
import { account, mixerMemberships, mixerMessages, mixers, profiles, user } from '../schema';
import { DEMO_ACCOUNT_KEYS, DEMO_CHAT, DEMO_MEMBERS, DEMO_MIXERS, DEMO_PASSWORD, type DemoMember } from './demo-data';

export const DEMO_EMAIL_DOMAIN = '@demo.fancy.test';

/** A round-ish portrait card with initials, generated locally (no downloads). */
function avatarSvg(m: DemoMember): string {
  const initials = m.fullName
    .split(/\s+/)
    .map((p) => p[0])
    .slice(0, 2)
    .join('')
    .toUpperCase();
  const h = m.avatarHue;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 512 512">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${h},70%,62%)"/><stop offset="1" stop-color="hsl(${(h + 40) % 360},65%,42%)"/></linearGradient></defs>
<rect width="512" height="512" fill="url(#g)"/>
<circle cx="256" cy="210" r="92" fill="hsla(0,0%,100%,0.22)"/>
<path d="M96 470c20-96 88-150 160-150s140 54 160 150z" fill="hsla(0,0%,100%,0.22)"/>
<text x="256" y="236" text-anchor="middle" font-family="DejaVu Sans, Arial, sans-serif" font-size="84" font-weight="700" fill="#fff">${initials}</text>
</svg>`;
}

/**
 * Embedded mode's demo data (issue: foundation): members with complete profiles and avatars,
 * mixers around now with memberships and chat. Runs once: skipped when demo members exist.
 */
export async function seedDemoData({ database, storage }: { database: Database; storage: Storage }) {
  const { db } = database;
  const accounts = DEMO_ACCOUNT_KEYS.map((k) => DEMO_MEMBERS.find((m) => m.key === k)?.email ?? k);
  const existing = await db
    .select({ id: user.id })
    .from(user)
    .where(like(user.email, `%${DEMO_EMAIL_DOMAIN}`))
    .limit(1);
  if (existing.length) return { accounts, password: DEMO_PASSWORD, seeded: false };

  const hash = await hashPassword(DEMO_PASSWORD);
  const now = Date.now();
  const ids = new Map<string, string>();

  for (const m of DEMO_MEMBERS) {
    const id = randomUUID().replace(/-/g, '');
    ids.set(m.key, id);
    const avatarKey = `${id}/avatar.webp`;
    await storage.put(
      avatarKey,
      await sharp(Buffer.from(avatarSvg(m)))
        .webp({ quality: 82 })
        .toBuffer(),
      'image/webp',
    );
    await db.insert(user).values({ id, name: m.fullName, email: m.email, emailVerified: true, onboardingComplete: true });
    await db.insert(account).values({ id: randomUUID(), accountId: id, providerId: 'credential', userId: id, password: hash });
    await db.insert(profiles).values({
      id,
      fullName: m.fullName,
      pronouns: m.pronouns,
      bio: m.bio,
      avatarUrl: avatarKey,
      dob: m.dob,
      genderIdentities: m.genderIdentities,
      sexualOrientations: m.sexualOrientations,
      lookingFor: m.lookingFor,
      interests: m.interests,
      smallJoy: m.smallJoy,
      loveToTalkAbout: m.loveToTalkAbout,
      valueInRelationships: m.valueInRelationships,
      sharedExperience: m.sharedExperience,
      cityRegion: m.city,
      countryCode: m.city ? 'GB' : null,
      tz: 'Europe/London',
      shareCityRegion: m.shareCity,
      locationSource: m.city ? 'manual' : 'unknown',
      locationLastConfirmedAt: m.city ? new Date(now) : null,
      onboardingCompleted: true,
      onboardingStep: 10,
    });
  }

  const mixerIds = new Map<string, string>();
  for (const mx of DEMO_MIXERS) {
    const startsAt = new Date(now + mx.startOffsetMinutes * 60_000);
    const endsAt = new Date(startsAt.getTime() + mx.durationMinutes * 60_000);
    const status = endsAt.getTime() <= now ? 'ended' : startsAt.getTime() <= now ? 'live' : 'scheduled';
    const [row] = await db
      .insert(mixers)
      .values({
        title: mx.title,
        topic: mx.topic,
        description: mx.description,
        theme: mx.theme,
        tags: mx.tags,
        intent: mx.intent,
        status,
        startsAt,
        endsAt,
        maxParticipants: mx.maxParticipants,
        icebreaker: mx.icebreaker,
        createdAt: new Date(Math.min(now, startsAt.getTime()) - 3 * 86_400_000),
      })
      .returning({ id: mixers.id });
    mixerIds.set(mx.key, row.id);
    if (mx.memberKeys.length) {
      await db.insert(mixerMemberships).values(
        mx.memberKeys.map((k, i) => ({
          mixerId: row.id,
          userId: ids.get(k) as string,
          state: 'joined',
          joinedAt: new Date(Math.min(now, startsAt.getTime()) - (mx.memberKeys.length - i) * 3_600_000),
        })),
      );
    }
    if (status !== 'scheduled') {
      await db
        .insert(mixerMessages)
        .values({ mixerId: row.id, senderId: null, kind: 'icebreaker', body: mx.icebreaker, createdAt: startsAt });
    }
  }
  if (DEMO_CHAT.length) {
    await db.insert(mixerMessages).values(
      DEMO_CHAT.map((line) => ({
        mixerId: mixerIds.get(line.mixerKey) as string,
        senderId: ids.get(line.memberKey) as string,
        kind: 'member',
        body: line.body,
        createdAt: new Date(now - line.minutesAgo * 60_000),
      })),
    );
  }
  return { accounts, password: DEMO_PASSWORD, seeded: true };
}
