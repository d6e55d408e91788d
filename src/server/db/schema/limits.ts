import { bigint, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Rate-limit state shared by every app instance on one PostgreSQL (docs/decisions/020). One row
 * per limited key: a sliding log (`hits`, ms timestamps still inside the longest window) or a
 * pace limiter's theoretical arrival time (`tat`, ms × limit). Rows past `expires_at` carry no
 * state and are swept. The embedded mode keeps the same state in memory instead.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    hits: bigint('hits', { mode: 'number' }).array(),
    tat: bigint('tat', { mode: 'number' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limits_expires_at_idx').on(t.expiresAt)],
);
