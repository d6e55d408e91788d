import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { user } from './auth';

/**
 * Verified members (issue 21, docs/decisions/022). Nothing of a selfie is kept here: a challenge,
 * the verdicts (numbers and words), one encrypted face description per verified member, and
 * review cases whose frames live in storage only until an admin decides.
 */
export const verificationChallenges = pgTable(
  'verification_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    steps: text('steps').array().notNull(),
    /** When the blink prompt shows, ms into the first step (decision 031); null for challenges from before it. */
    blinkAtMs: integer('blink_at_ms'),
    /** The member's explicit consent to biometric processing, given when the challenge was asked for. */
    consentAt: timestamp('consent_at', { withTimezone: true }).notNull(),
    /** Consent to keep the frames for an admin's second check (age review), until it is decided. */
    keepForReview: boolean('keep_for_review').notNull().default(false),
    /** An appeal: if this check is refused again, a person looks at its frames instead. */
    appeal: boolean('appeal').notNull().default(false),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /**
     * How the check under this challenge ended (decision 031): null while open or never used (an
     * unused challenge costs a try, like a failure), 'failed', 'verified', 'review', or 'void'
     * (refused before any judgement — an unreadable, dark or black-and-white picture, or our
     * own outage — which costs no try).
     */
    outcome: text('outcome'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('verification_challenges_user_idx').on(t.userId, t.createdAt)],
);

/** Every check's verdict: when, the method, the model version, the outcome and its scores. */
export const verificationAttempts = pgTable(
  'verification_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** verified | failed | review */
    outcome: text('outcome').notNull(),
    reason: text('reason'),
    method: text('method').notNull(),
    modelVersion: text('model_version').notNull(),
    scores: jsonb('scores').notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('verification_attempts_user_idx').on(t.userId, t.createdAt)],
);

/** One row per member who verified: the badge and the encrypted face template. */
export const memberVerifications = pgTable('member_verifications', {
  userId: text('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  /** verified | revoked | pending (an open review) */
  status: text('status').notNull(),
  method: text('method').notNull(),
  modelVersion: text('model_version').notNull(),
  /** AES-256-GCM of the face description (base64url iv.tag.data); null once revoked by an admin. */
  faceVector: text('face_vector'),
  verifiedAt: timestamp('verified_at', { withTimezone: true }),
  /**
   * The main photo (its storage key) the badge was last checked against: at the check, then at
   * every re-check that kept it. A main photo that differs from it is re-checked (decision 022).
   */
  photoKey: text('photo_key'),
  revokedReason: text('revoked_reason'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Admin queue: age reviews, duplicate faces, appeals. */
export const verificationReviews = pgTable(
  'verification_reviews',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** age | duplicate | appeal | match */
    kind: text('kind').notNull(),
    /** open | approved | declined */
    status: text('status').notNull().default('open'),
    /** Storage keys of the frames the member agreed to keep for this review; emptied on decision. */
    frameKeys: text('frame_keys').array().notNull().default(sql`'{}'::text[]`),
    scores: jsonb('scores').notNull().default({}),
    /** Duplicate faces: the other account. */
    otherUserId: text('other_user_id').references(() => user.id, { onDelete: 'set null' }),
    /** An appeal: the refusal's reason. A match: gender_differs or close_match (decision 031). */
    note: text('note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: text('decided_by').references(() => user.id, { onDelete: 'set null' }),
  },
  (t) => [index('verification_reviews_status_idx').on(t.status, t.createdAt)],
);
