import { index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { user } from './auth';
import { mixers } from './social';

/**
 * Lines a member hid for themselves (issue 30): a mixer line or a direct message, by id. Private
 * to that member; deleting the row shows the line again.
 */
export const hiddenLines = pgTable(
  'hidden_lines',
  {
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** 'mixer' (mixer_messages.id) or 'dm' (direct_messages.id). */
    kind: text('kind').notNull(),
    messageId: uuid('message_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind, t.messageId] })],
);

/** Members a member muted in one mixer, for themselves only: their lines arrive collapsed. */
export const mixerMutes = pgTable(
  'mixer_mutes',
  {
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    mixerId: uuid('mixer_id')
      .notNull()
      .references(() => mixers.id, { onDelete: 'cascade' }),
    mutedId: text('muted_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.mixerId, t.mutedId] }), index('mixer_mutes_muted_idx').on(t.mutedId)],
);
