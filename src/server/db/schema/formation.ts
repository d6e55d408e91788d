import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { user } from './auth';
import { mixers } from './social';

/**
 * Mixers that form themselves (issue 14, docs/decisions/011): the formation job's settings and
 * topic templates, the invitations it sends, and each member's private attendance record.
 */

/** One row (id = 1): what the formation job does. Admins change it; every change is audited. */
export const formationSettings = pgTable(
  'formation_settings',
  {
    id: integer('id').primaryKey().default(1),
    paused: boolean('paused').notNull().default(false),
    /** Seats of a formed mixer (its capacity). */
    groupSize: integer('group_size').notNull().default(8),
    /** A mixer is formed only when at least this many seats can be filled at once. */
    minSeats: integer('min_seats').notNull().default(6),
    /** How long an invitation holds its seat (also never later than an hour before the start). */
    holdHours: integer('hold_hours').notNull().default(12),
    /** Invitations one member may get in any 7 days. */
    maxInvitesPerWeek: integer('max_invites_per_week').notNull().default(3),
    /** Formed mixers start at least this many hours ahead… */
    leadHours: integer('lead_hours').notNull().default(24),
    /** …and at most this many days ahead. */
    horizonDays: integer('horizon_days').notNull().default(7),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: text('updated_by').references(() => user.id, { onDelete: 'set null' }),
  },
  (t) => [check('formation_settings_single_row', sql`${t.id} = 1`)],
);

/** What a formed mixer about a topic is called and opens with. Admins edit them; defaults are seeded. */
export const topicTemplates = pgTable('topic_templates', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** A predefined interest's name; one template per topic. */
  topic: text('topic').notNull().unique(),
  title: text('title').notNull(),
  description: text('description').notNull().default(''),
  theme: text('theme').notNull().default('sunset'),
  icebreaker: text('icebreaker').notNull(),
  active: boolean('active').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: text('updated_by').references(() => user.id, { onDelete: 'set null' }),
});

/**
 * A seat held for one member in a formed mixer. `pending` holds a seat on `side` until
 * `expires_at`; then it becomes `expired` and the seat is released. One row per member per mixer.
 */
export const mixerInvitations = pgTable(
  'mixer_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    mixerId: uuid('mixer_id')
      .notNull()
      .references(() => mixers.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** The seat-plan side held ('all' when the mixer has no plan). */
    side: text('side').notNull().default('all'),
    /** pending | accepted | declined | expired | withdrawn */
    status: text('status').notNull().default('pending'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    respondedAt: timestamp('responded_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('mixer_invitations_mixer_user_uq').on(t.mixerId, t.userId),
    index('mixer_invitations_user_created_idx').on(t.userId, t.createdAt),
    index('mixer_invitations_status_expires_idx').on(t.status, t.expiresAt),
  ],
);

/**
 * How each mixer went for each member, private to that member (issue 14): `attended` (wrote at
 * least one line and was there from within the first quarter to the end, or for half of it:
 * decision 014), `no_show` (in it at the end or left while live, and not attended) or
 * `left_late` (left in the last hour before the start). Written once; never shown to others.
 */
export const mixerAttendance = pgTable(
  'mixer_attendance',
  {
    mixerId: uuid('mixer_id')
      .notNull()
      .references(() => mixers.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    outcome: text('outcome').notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.mixerId, t.userId] }), index('mixer_attendance_user_recorded_idx').on(t.userId, t.recordedAt)],
);
