import { type SQL, sql } from 'drizzle-orm';
import type { MixerListQuery } from '../../../shared/schemas/mixers';

const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The list's filters for the mixer aliased `m`: looking-for, topic or tag, and free text. */
export function searchFilters(query: Pick<MixerListQuery, 'intent' | 'topic' | 'q'>): SQL[] {
  const filters: SQL[] = [];
  if (query.intent) filters.push(sql`m.intent = ${query.intent}`);
  if (query.topic) {
    filters.push(sql`(lower(m.topic) = lower(${query.topic}) or lower(${query.topic}) in (select lower(t) from unnest(m.tags) t))`);
  }
  if (query.q) {
    const p = likePattern(query.q);
    filters.push(sql`(m.title ilike ${p} or m.topic ilike ${p} or m.description ilike ${p} or array_to_string(m.tags, ' ') ilike ${p})`);
  }
  return filters;
}
