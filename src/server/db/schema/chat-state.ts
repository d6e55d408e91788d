import { pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { user } from './auth';
import { mixers } from './social';

/**
 * Where each member stopped reading a mixer's chat (issue 29): the time of the newest line
 * they have seen. Only moves forward.
 */
export const mixerReads = pgTable(
  'mixer_reads',
  {
    mixerId: uuid('mixer_id')
      .notNull()
      .references(() => mixers.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    readAt: timestamp('read_at', { withTimezone: true, precision: 6 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.mixerId, t.userId] })],
);
