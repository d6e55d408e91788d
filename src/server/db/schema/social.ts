import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { SeatPlan } from '../../../shared/audience';
import { user } from './auth';

export const mixers = pgTable(
  'mixers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: text('title').notNull(),
    topic: text('topic').notNull().default('General'),
    description: text('description').notNull().default(''),
    theme: text('theme').notNull().default('sunset'),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    intent: text('intent').notNull().default('Friends'),
    /** scheduled | live | ended | cancelled — 'live' means active (spec §3). */
    status: text('status').notNull().default('scheduled'),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    maxParticipants: integer('max_participants').notNull().default(10),
    icebreaker: text('icebreaker'),
    /** Audience (issue 13, decision 010): a region of the built-in city list, or null for online. */
    audienceRegion: text('audience_region'),
    ageMin: integer('age_min').notNull().default(18),
    ageMax: integer('age_max').notNull().default(99),
    /** Dating mixers: [{ side, seats }]; empty for Friends and Casual (one open pool of max_participants). */
    seatPlan: jsonb('seat_plan').$type<SeatPlan>().notNull().default([]),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** 'admin' (typed in) or 'auto' (made by the formation job, issue 14). */
    origin: text('origin').notNull().default('admin'),
    /** Auto mixers: topic|region|intent|plan|slot start. Unique, so two job runs never make the same mixer twice. */
    formationKey: text('formation_key').unique(),
    /** Only verified members may see and join it (issue 21, decision 022). */
    verifiedOnly: boolean('verified_only').notNull().default(false),
  },
  (t) => [index('mixers_status_starts_idx').on(t.status, t.startsAt)],
);

export const mixerMemberships = pgTable(
  'mixer_memberships',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    mixerId: uuid('mixer_id')
      .notNull()
      .references(() => mixers.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** joined | waitlisted | left — 'joined' counts as participant (spec §3). */
    state: text('state').notNull().default('joined'),
    /** The seat-plan side this seat (or waitlist place) is on; 'all' when the mixer has no plan. */
    side: text('side').notNull().default('all'),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the member last left (state 'left'), to tell a late leave from an early one. */
    leftAt: timestamp('left_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('mixer_memberships_mixer_user_uq').on(t.mixerId, t.userId),
    index('mixer_memberships_user_state_idx').on(t.userId, t.state),
  ],
);

export const mixerMessages = pgTable(
  'mixer_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    mixerId: uuid('mixer_id')
      .notNull()
      .references(() => mixers.id, { onDelete: 'cascade' }),
    /** null for the icebreaker and other system lines. */
    senderId: text('sender_id').references(() => user.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull().default('member'),
    body: text('body').notNull(),
    /** The detectors' verdict at send time (issue 30): 'abuse' (sent anyway) or null; receivers see it collapsed. */
    flag: text('flag'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The line this one answers (issue 29); kept when the original is unsent, gone with it when deleted. */
    replyToId: uuid('reply_to_id').references((): AnyPgColumn => mixerMessages.id, { onDelete: 'set null' }),
    editedAt: timestamp('edited_at', { withTimezone: true }),
    /** Unsent by its sender: the body is emptied at the same moment (decision 032). */
    unsentAt: timestamp('unsent_at', { withTimezone: true }),
    /** Made by the sender's client; a retried send with the same key returns the first line (decision 032). */
    clientKey: text('client_key'),
    /** Ids of the participants the line mentions (issue 29); null when none. */
    mentions: jsonb('mentions').$type<string[]>(),
    /** Reported by two different members of the room: hidden for everyone pending review (issue 30). */
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    /** Removed by a moderator: gone from every member-facing view; the report's evidence keeps it. */
    removedAt: timestamp('removed_at', { withTimezone: true }),
  },
  (t) => [
    index('mixer_messages_mixer_created_idx').on(t.mixerId, t.createdAt),
    uniqueIndex('mixer_messages_client_key_idx').on(t.senderId, t.mixerId, t.clientKey),
  ],
);

/** One reaction per member per line of a mixer chat (issue 29). */
export const mixerMessageReactions = pgTable(
  'mixer_message_reactions',
  {
    messageId: uuid('message_id')
      .notNull()
      .references(() => mixerMessages.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    emoji: text('emoji').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.userId] })],
);

export const fancies = pgTable(
  'fancies',
  {
    fromUserId: text('from_user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    toUserId: text('to_user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    mixerId: uuid('mixer_id').references(() => mixers.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.fromUserId, t.toUserId] }), index('fancies_to_idx').on(t.toUserId)],
);

export const matches = pgTable(
  'matches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The pair is stored ordered (profile1_id < profile2_id) so it is unique either way round. */
    profile1Id: text('profile1_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    profile2Id: text('profile2_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** matched | unmatched | blocked */
    status: text('status').notNull().default('matched'),
    mixerId: uuid('mixer_id').references(() => mixers.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** Who unmatched or blocked (issue 30): only they keep the ended conversation, read-only. */
    endedBy: text('ended_by').references(() => user.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('matches_pair_uq').on(t.profile1Id, t.profile2Id),
    index('matches_profile2_idx').on(t.profile2Id),
    check('matches_pair_ordered', sql`${t.profile1Id} < ${t.profile2Id}`),
  ],
);

export const directMessages = pgTable(
  'direct_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    matchId: uuid('match_id')
      .notNull()
      .references(() => matches.id, { onDelete: 'cascade' }),
    senderId: text('sender_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    recipientId: text('recipient_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    body: text('body').notNull(),
    /** The detectors' verdict at send time (issue 30): 'contact' (first 72 hours), 'scam', 'abuse' or null. */
    flag: text('flag'),
    isRead: boolean('is_read').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    replyToId: uuid('reply_to_id').references((): AnyPgColumn => directMessages.id, { onDelete: 'set null' }),
    editedAt: timestamp('edited_at', { withTimezone: true }),
    unsentAt: timestamp('unsent_at', { withTimezone: true }),
    clientKey: text('client_key'),
    /** Removed by a moderator (issue 30): gone from both sides; the report's evidence keeps it. */
    removedAt: timestamp('removed_at', { withTimezone: true }),
  },
  (t) => [
    // The conversation page walks (created_at desc, id desc) within a match (decision 016).
    index('direct_messages_match_created_id_idx').on(t.matchId, t.createdAt, t.id),
    index('direct_messages_unread_idx').on(t.recipientId, t.isRead),
    index('direct_messages_sender_idx').on(t.senderId),
    uniqueIndex('direct_messages_client_key_idx').on(t.senderId, t.matchId, t.clientKey),
  ],
);

/** One reaction per member per direct message (issue 29). */
export const directMessageReactions = pgTable(
  'direct_message_reactions',
  {
    messageId: uuid('message_id')
      .notNull()
      .references(() => directMessages.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    emoji: text('emoji').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.userId] })],
);

export const blocks = pgTable(
  'blocks',
  {
    blockerId: text('blocker_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    blockedId: text('blocked_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.blockerId, t.blockedId] }), index('blocks_blocked_idx').on(t.blockedId)],
);

export const reports = pgTable(
  'reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reporterId: text('reporter_id').references(() => user.id, { onDelete: 'set null' }),
    /** Null once the reported member deleted their account: the report stays for moderators. */
    reportedId: text('reported_id').references(() => user.id, { onDelete: 'set null' }),
    mixerId: uuid('mixer_id').references(() => mixers.id, { onDelete: 'set null' }),
    reason: text('reason').notNull(),
    details: text('details').notNull().default(''),
    /** open | dismissed | warned | suspended | actioned (issue 30: the action itself is in moderation_actions) */
    status: text('status').notNull().default('open'),
    resolution: text('resolution'),
    resolvedBy: text('resolved_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    /** Issue 30: 'member' (from a card), 'mixer' or 'direct' (a line). */
    targetKind: text('target_kind').notNull().default('member'),
    /** The reported line (mixer_messages or direct_messages id); no key, so it outlives the line. */
    messageId: uuid('message_id'),
    matchId: uuid('match_id'),
    /** 0 = most severe (1-hour target), 1 = the rest (24 hours). See shared/moderation. */
    severity: integer('severity').notNull().default(1),
    /** Frozen at the moment of the report: the line, 10 before and after, the member's profile text and photo copy. */
    evidence: jsonb('evidence'),
    /** Storage key of the copy of the reported member's main photo (`evidence/{reportId}/…`). */
    evidencePhotoKey: text('evidence_photo_key'),
  },
  (t) => [
    index('reports_status_created_idx').on(t.status, t.createdAt),
    // One report per member per line: the second answers 409.
    uniqueIndex('reports_reporter_message_uq').on(t.reporterId, t.messageId),
  ],
);

export const profileViews = pgTable(
  'profile_views',
  {
    viewerId: text('viewer_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    viewedId: text('viewed_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.viewerId, t.viewedId, t.day] }), index('profile_views_viewed_idx').on(t.viewedId)],
);

export const campaigns = pgTable('campaigns', {
  id: uuid('id').primaryKey().defaultRandom(),
  label: text('label').notNull(),
  code: text('code').notNull().unique(),
  source: text('source').notNull().default(''),
  medium: text('medium').notNull().default(''),
  campaign: text('campaign').notNull().default(''),
  createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const contactMessages = pgTable('contact_messages', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: text('user_id').references(() => user.id, { onDelete: 'set null' }),
  name: text('name').notNull(),
  email: text('email').notNull(),
  topic: text('topic').notNull(),
  message: text('message').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    actorId: text('actor_id').references(() => user.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    target: text('target'),
    details: text('details'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('audit_log_created_idx').on(t.createdAt)],
);

export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    /** stored (dev mailbox) | pending | sent | failed */
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('mail_outbox_status_next_idx').on(t.status, t.nextAttemptAt), index('mail_outbox_created_idx').on(t.createdAt)],
);

/** One row per member per day they used the app: daily active members (admin metrics). */
export const dailyActivity = pgTable(
  'daily_activity',
  {
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] }), index('daily_activity_day_idx').on(t.day)],
);
