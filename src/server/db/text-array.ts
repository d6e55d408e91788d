import { sql } from 'drizzle-orm';

/** SQL: a text[] literal with one parameter per value (`'{}'` when there are none). */
export const textArray = (values: readonly string[]) =>
  values.length
    ? sql`array[${sql.join(
        values.map((v) => sql`${v}`),
        sql`, `,
      )}]::text[]`
    : sql`'{}'::text[]`;
