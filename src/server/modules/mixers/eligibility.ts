import { type SQL, sql } from 'drizzle-orm';
import {
  AUDIENCE_MESSAGES,
  type Audience,
  ineligibility,
  londonToday,
  type MemberFacts,
  memberFactsOfRow,
  type SeatPlan,
} from '../../../shared/audience';
import { MIXER_MESSAGES } from '../../../shared/schemas/mixers';
import { VERIFIED_ONLY_MIXER } from '../../../shared/verification';
import type { Database, Db } from '../../db/client';
import { compiledRead } from '../../db/prepared';
import { AppError } from '../../http/errors';
import { isUuid } from '../../http/cursor';
import { parseJson, rowsOf } from '../../lib/sql';

/** A member as the audience rules and the "For you" ranking see them. */
export interface Viewer extends MemberFacts {
  userId: string;
  lookingFor: string[];
  interests: string[];
  /** Holds the verified badge: verified-only mixers are for them (issue 21). */
  verified: boolean;
  /** Settings: place me only with verified members (For you and invitations honour it). */
  onlyVerified: boolean;
}

const isDatabase = (db: Db | Database): db is Database => typeof (db as Database).ping === 'function';

type ViewerRow = {
  dob: string | null;
  city: string | null;
  genders: string[] | null;
  orientations: string[] | null;
  looking_for: string[] | null;
  interests: string[] | null;
  verified: boolean | null;
  only_verified: boolean | null;
};
const viewerSql = (userId: unknown) => sql`
      select to_char(dob, 'YYYY-MM-DD') as dob, city_region as city, gender_identities as genders,
             sexual_orientations as orientations, looking_for, interests,
             exists (select 1 from member_verifications mv where mv.user_id = profiles.id and mv.status = 'verified') as verified,
             coalesce(preferences->>'onlyVerified' = 'true', false) as only_verified
        from profiles where id = ${userId}`;
const viewerRead = compiledRead<ViewerRow, 'userId'>((v) => viewerSql(v.userId));

/** The viewer's facts, derived from their profile as it is now (one small query). */
export async function loadViewer(db: Db | Database, userId: string, now = new Date()): Promise<Viewer> {
  // Given the database (not a transaction), the hot read paths use the prepared statement.
  const [p] = isDatabase(db) ? await viewerRead(db, { userId }) : rowsOf<ViewerRow>(await db.execute(viewerSql(userId)));
  const facts = memberFactsOfRow(p, londonToday(now));
  return {
    ...facts,
    userId,
    lookingFor: p?.looking_for ?? [],
    interests: p?.interests ?? [],
    verified: Boolean(p?.verified),
    onlyVerified: Boolean(p?.only_verified),
  };
}

const textArray = (values: readonly string[]) => sql`string_to_array(${values.join(',')}, ',')::text[]`;

/**
 * SQL for the mixer aliased `m`: the viewer is in its audience (the same rule as
 * `ineligibility`), or already holds a seat or waitlist place there (mixers joined stay theirs
 * after profile edits).
 */
export function eligibleSql(v: Viewer): SQL {
  const age = v.age === null ? sql`false` : sql`(${v.age}::int between m.age_min and m.age_max)`;
  const where = v.region === null ? sql`m.audience_region is null` : sql`(m.audience_region is null or m.audience_region = ${v.region})`;
  const plan = v.sides.length
    ? sql`(m.seat_plan = '[]'::jsonb or exists (select 1 from jsonb_array_elements(m.seat_plan) s where s->>'side' = any(${textArray(v.sides)})))`
    : sql`m.seat_plan = '[]'::jsonb`;
  const verified = v.verified ? sql`true` : sql`not m.verified_only`;
  return sql`((${age} and ${where} and ${plan} and ${verified})
    or exists (select 1 from mixer_memberships em where em.mixer_id = m.id and em.user_id = ${v.userId} and em.state in ('joined', 'waitlisted')))`;
}

export interface AudienceRow {
  audience_region: string | null;
  age_min: number;
  age_max: number;
  seat_plan: SeatPlan | string;
}

export const audienceOf = (r: AudienceRow): Audience => ({
  region: r.audience_region,
  ageMin: Number(r.age_min),
  ageMax: Number(r.age_max),
  seatPlan: parseJson(r.seat_plan, []),
});

/**
 * Throws unless the viewer may see and join this mixer: not_found when there is none,
 * not_for_you (a kind message that never names the seat plan) when it is for someone else.
 */
export async function ensureEligible(db: Db, v: Viewer, mixerId: string): Promise<Audience> {
  if (!isUuid(mixerId)) throw new AppError('not_found', MIXER_MESSAGES.notFound);
  const [row] = rowsOf<AudienceRow & { mine: string | null; verified_only: boolean }>(
    await db.execute(sql`
      select m.audience_region, m.age_min, m.age_max, m.seat_plan, m.verified_only,
             (select state from mixer_memberships c where c.mixer_id = m.id and c.user_id = ${v.userId}) as mine
        from mixers m where m.id = ${mixerId}`),
  );
  if (!row) throw new AppError('not_found', MIXER_MESSAGES.notFound);
  const audience = audienceOf(row);
  if (row.mine === 'joined' || row.mine === 'waitlisted') return audience;
  if (ineligibility(audience, v)) throw new AppError('not_for_you', AUDIENCE_MESSAGES.notForYou);
  if (row.verified_only && !v.verified) throw new AppError('verified_only', VERIFIED_ONLY_MIXER);
  return audience;
}

/** Said on the list when the viewer only sees online mixers because we do not know their city. */
export const audienceNotice = (v: Viewer) => (v.region === null ? AUDIENCE_MESSAGES.noCity : null);
