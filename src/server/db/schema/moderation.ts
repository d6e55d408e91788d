import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { user } from './auth';
import { reports } from './social';

/**
 * What a moderator did about a report (issue 30, decision 036): dismiss, remove line(s), warn,
 * mute in mixers, suspend or ban, each naming the rule broken. A reversal (an upheld appeal)
 * sets `reversed_at` and undoes the effect.
 */
export const moderationActions = pgTable(
  'moderation_actions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reportId: uuid('report_id').references(() => reports.id, { onDelete: 'set null' }),
    /** The actioned member; null once their account is gone (a ban ends it). */
    memberId: text('member_id').references(() => user.id, { onDelete: 'set null' }),
    /** dismiss | remove | warn | mute | suspend | ban */
    action: text('action').notNull(),
    rule: text('rule').notNull(),
    note: text('note').notNull().default(''),
    days: integer('days'),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    /** The quoted line, for the member's notice. */
    quote: text('quote'),
    /** The reported line was removed with this action (a reversal puts it back). */
    removedLine: boolean('removed_line').notNull().default(false),
    /** A ban: the hash in banned_emails (a reversal deletes it), and what checks an appeal by link. */
    emailHash: text('email_hash'),
    actorId: text('actor_id').references(() => user.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    reversedAt: timestamp('reversed_at', { withTimezone: true }),
  },
  (t) => [index('moderation_actions_member_idx').on(t.memberId, t.action), index('moderation_actions_report_idx').on(t.reportId)],
);

/** One appeal per action, within 14 days, decided by an admin other than the one who acted. */
export const appeals = pgTable(
  'appeals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    actionId: uuid('action_id')
      .notNull()
      .references(() => moderationActions.id, { onDelete: 'cascade' }),
    memberId: text('member_id').references(() => user.id, { onDelete: 'set null' }),
    text: text('text').notNull(),
    /** A banned member's address, given with an appeal by link, to tell them the outcome; cleared once decided. */
    contactEmail: text('contact_email'),
    /** open | upheld | reversed */
    status: text('status').notNull().default('open'),
    decidedBy: text('decided_by').references(() => user.id, { onDelete: 'set null' }),
    decision: text('decision'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('appeals_action_uq').on(t.actionId), index('appeals_status_created_idx').on(t.status, t.createdAt)],
);

/** SHA-256 of a banned member's lower-cased e-mail: that address cannot register again. */
export const bannedEmails = pgTable('banned_emails', {
  emailHash: text('email_hash').primaryKey(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
