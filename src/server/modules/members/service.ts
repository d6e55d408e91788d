import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { isVerifiedSql } from '../verification/service';
import { CARD_SHARED_MIXERS, type MemberCard, MEMBER_MESSAGES } from '../../../shared/schemas/members';
import { AppError } from '../../http/errors';
import { utcDay } from '../../auth/session';
import { orderedPair, rows } from '../matches/service';
import { ageFromDob, firstNameOf } from '../../lib/members';
import { parseJson } from '../../lib/sql';
import { cardOpenableBy, sharedMixer } from '../safety/service';
import { photoRef } from '../profiles/service';

interface CardRow {
  id: string | null;
  verified: boolean | null;
  name: string | null;
  dob: string | null;
  pronouns: string | null;
  city_region: string | null;
  share_city: boolean | null;
  bio: string | null;
  gender_identities: string[] | null;
  sexual_orientations: string[] | null;
  looking_for: string[] | null;
  interests: string[] | null;
  small_joy: string | null;
  love_to_talk_about: string | null;
  value_in_relationships: string | null;
  shared_experience: string | null;
  avatar_url: string | null;
  photos: string[] | null;
  updated_ms: number | string | null;
  viewer_onboarded: boolean | null;
  visible: boolean;
  match_id: string | null;
  shared_mixers: { id: string; title: string }[] | string | null;
}

const notAvailable = () => new AppError('not_found', MEMBER_MESSAGES.notAvailable);

/**
 * Member `targetId`'s profile card as `viewerId` may see it, in one round trip; then the view
 * is counted (once per viewer per day) and the member's Home counter moves in realtime.
 *
 * Not shown (404, one message for all): unknown, suspended or not yet onboarded members,
 * a block either way, and — when the member keeps their profile to "members I've shared a
 * mixer with" — viewers who neither were in a mixer with them nor are matched with them.
 */
export async function getMemberCard(app: FastifyInstance, viewerId: string, targetId: string, now = new Date()): Promise<MemberCard> {
  const db = app.deps.database.db;
  const [p1, p2] = orderedPair(viewerId, targetId);
  const [row] = await rows<CardRow>(
    db,
    sql`select u.id, coalesce(nullif(trim(p.full_name), ''), u.name) as name,
        to_char(p.dob, 'YYYY-MM-DD') as dob, p.pronouns, p.city_region, p.share_city_region as share_city, p.bio,
        p.gender_identities, p.sexual_orientations, p.looking_for, p.interests,
        p.small_joy, p.love_to_talk_about, p.value_in_relationships, p.shared_experience,
        p.avatar_url, p.photos, (extract(epoch from p.updated_at) * 1000)::float8 as updated_ms,
        v.viewer_onboarded, ${isVerifiedSql(sql`u.id`)} as verified,
        ${cardOpenableBy(viewerId, sql`u.id`)} as visible,
        (select m.id from matches m where m.profile1_id = ${p1} and m.profile2_id = ${p2} and m.status = 'matched') as match_id,
        (select coalesce(json_agg(json_build_object('id', s.id, 'title', s.title) order by s.starts_at desc, s.id), '[]'::json)
           from (select mx.id, mx.title, mx.starts_at from mixers mx
                  where ${sharedMixer(viewerId, sql`u.id`, sql`mx.id`)}
                  order by mx.starts_at desc, mx.id
                  limit ${CARD_SHARED_MIXERS}) s) as shared_mixers
      from (select (select vp.onboarding_completed from profiles vp where vp.id = ${viewerId}) as viewer_onboarded) v
      left join "user" u on u.id = ${targetId}
      left join profiles p on p.id = u.id`,
  );

  if (!row?.viewer_onboarded) throw new AppError('forbidden', MEMBER_MESSAGES.profileIncomplete);
  // `visible`: the one rule (safety/visibility `cardOpenableBy`): onboarded, not suspended, no
  // block either way, "Who can see my profile" (shared a mixer — decision 024 — or matched).
  if (!row.id || !row.visible) throw notAvailable();
  const isYou = targetId === viewerId;
  const sharedMixers = parseJson(row.shared_mixers, []);

  if (!isYou) await countViewQuietly(app, viewerId, targetId, now);

  const signer = app.deps.signer;
  const version = row.updated_ms == null ? undefined : Number(row.updated_ms);
  return {
    id: targetId,
    firstName: firstNameOf(row.name),
    verified: Boolean(row.verified),
    age: ageFromDob(row.dob, now),
    pronouns: row.pronouns,
    cityRegion: isYou || row.share_city ? row.city_region : null,
    bio: row.bio,
    genderIdentities: row.gender_identities ?? [],
    sexualOrientations: row.sexual_orientations ?? [],
    lookingFor: row.looking_for ?? [],
    interests: row.interests ?? [],
    smallJoy: row.small_joy,
    loveToTalkAbout: row.love_to_talk_about,
    valueInRelationships: row.value_in_relationships,
    sharedExperience: row.shared_experience,
    avatarUrl: row.avatar_url ? photoRef(signer, row.avatar_url, version).url : null,
    photos: (row.photos ?? []).map((key) => {
      const ref = photoRef(signer, key);
      return { url: ref.url, thumbUrl: ref.thumbUrl };
    }),
    isYou,
    matchId: row.match_id,
    sharedMixers,
  };
}

/**
 * A profile view counts at most once per viewer per day (the primary key); only a new row
 * moves the member's "Profile views" counter, live over the realtime socket.
 */
async function countView(app: FastifyInstance, viewerId: string, viewedId: string, now: Date): Promise<void> {
  const inserted = await rows<{ ok: number }>(
    app.deps.database.db,
    sql`insert into profile_views (viewer_id, viewed_id, day) values (${viewerId}, ${viewedId}, ${utcDay(now)}::date)
      on conflict do nothing returning 1 as ok`,
  );
  if (inserted.length) await app.realtime.publish(`user:${viewedId}`, { type: 'counter', key: 'profileViews', delta: 1 });
}

/** Counting is a side effect of showing the card: a failure there is logged, never shown. */
async function countViewQuietly(app: FastifyInstance, viewerId: string, viewedId: string, now: Date): Promise<void> {
  try {
    await countView(app, viewerId, viewedId, now);
  } catch (err) {
    app.log.warn({ err }, 'could not count a profile view');
  }
}
