import { boolean, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { user } from './auth';
import { mixerMessages, mixers } from './social';

/**
 * The mixer's host (issue 29, docs/decisions/034). One row per live mixer is the host's claim
 * sheet: every line it posts first moves a counter or fills a column of this row with a
 * conditional UPDATE in the same statement as the insert, so two instances never post twice.
 */
export const mixerHosts = pgTable('mixer_hosts', {
  mixerId: uuid('mixer_id')
    .primaryKey()
    .references(() => mixers.id, { onDelete: 'cascade' }),
  /** Admins switch the host off per mixer. */
  enabled: boolean('enabled').notNull().default(true),
  /** Prompts posted so far (scheduled and quiet-room); the next prompt is prompts[posted % length]. */
  promptsPosted: integer('prompts_posted').notNull().default(0),
  /** Scheduled prompt slots already handled (posted, or passed because a prompt had just gone out). */
  slotsDone: integer('slots_done').notNull().default(0),
  lastHostAt: timestamp('last_host_at', { withTimezone: true }),
  /** The current prompt's text (for the nudge's suggested reply). */
  currentPrompt: text('current_prompt'),
  gameAt: timestamp('game_at', { withTimezone: true }),
  wrapupAt: timestamp('wrapup_at', { withTimezone: true }),
  updatedBy: text('updated_by').references(() => user.id, { onDelete: 'set null' }),
});

/** An admin's own prompts for a topic; topics without a row use Fancy's defaults. */
export const hostTopicPrompts = pgTable('host_topic_prompts', {
  topic: text('topic').primaryKey(),
  prompts: text('prompts').array().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: text('updated_by').references(() => user.id, { onDelete: 'set null' }),
});

/** The halfway game: a one-tap poll carried by a host line. */
export const hostPolls = pgTable(
  'host_polls',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    mixerId: uuid('mixer_id')
      .notNull()
      .references(() => mixers.id, { onDelete: 'cascade' }),
    messageId: uuid('message_id')
      .notNull()
      .unique()
      .references(() => mixerMessages.id, { onDelete: 'cascade' }),
    question: text('question').notNull(),
    options: text('options').array().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('host_polls_mixer_idx').on(t.mixerId)],
);

/** One vote per member per poll (the primary key makes a second vote a conflict). */
export const hostPollVotes = pgTable(
  'host_poll_votes',
  {
    pollId: uuid('poll_id')
      .notNull()
      .references(() => hostPolls.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    option: integer('option').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.pollId, t.userId] })],
);

/** The one private nudge a quiet member gets per mixer: open, then sent or dismissed. */
export const hostNudges = pgTable(
  'host_nudges',
  {
    mixerId: uuid('mixer_id')
      .notNull()
      .references(() => mixers.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    prompt: text('prompt').notNull(),
    reply: text('reply').notNull(),
    /** open | sent | dismissed */
    state: text('state').notNull().default('open'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.mixerId, t.userId] })],
);
