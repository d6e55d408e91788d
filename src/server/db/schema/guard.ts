import { pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { user } from './auth';

/**
 * A member's hidden words (issue 30): lines containing them arrive collapsed for that member
 * only. Private: read and written only by their owner; `word` as typed, matched normalised.
 */
export const hiddenWords = pgTable(
  'hidden_words',
  {
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    word: text('word').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.word] })],
);
