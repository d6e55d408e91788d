import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { session, user } from './auth';

/**
 * One browser/device that allowed Web Push (issue 20, decision 021). Its settings live with it:
 * which categories, whether names and previews may show, and quiet hours in the device's own
 * time zone. The push service's endpoint is unique: subscribing again from the same browser
 * takes the row over (for another member only with the same keys, issue 32). It belongs to the
 * session that registered it and ends with it (sign-out, revoked, password reset or change).
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** The sign-in that registered this device; the subscription ends with it (issue 32). */
    sessionId: text('session_id')
      .notNull()
      .references(() => session.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull().unique(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    /** A readable name for Settings, e.g. "Chrome on Android" (from the User-Agent). */
    label: text('label').notNull().default('This device'),
    /** Category → on/off; a missing key means the default (on). */
    categories: jsonb('categories').$type<Record<string, boolean>>().notNull().default({}),
    /** false (default): "Fancy: you have a new message", no names or text. */
    showPreviews: boolean('show_previews').notNull().default(false),
    /** Quiet hours as minutes after local midnight; both null = none. */
    quietStart: integer('quiet_start'),
    quietEnd: integer('quiet_end'),
    timeZone: text('time_zone').notNull().default('Europe/London'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true }),
  },
  (t) => [index('push_subscriptions_user_idx').on(t.userId), index('push_subscriptions_session_idx').on(t.sessionId)],
);

/** The last push per member and conversation (or other coalescing key): at most one per 10 minutes. */
export const pushCoalesce = pgTable(
  'push_coalesce',
  {
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);
