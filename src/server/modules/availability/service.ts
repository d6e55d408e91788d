import { sql } from 'drizzle-orm';
import { AVAILABILITY_MESSAGES, type AvailabilityView, SLOT_KEYS, type SlotKey } from '../../../shared/availability';
import type { AvailabilityInput } from '../../../shared/schemas/availability';
import { DEFAULT_TZ } from '../../../shared/constants';
import type { Db } from '../../db/client';
import { AppError } from '../../http/errors';
import { rowsOf } from '../../lib/sql';
import { ensureProfile } from '../profiles/service';

interface Row {
  availability: string[] | null;
  topic_asks: string[] | null;
  tz: string | null;
}

const order = new Map(SLOT_KEYS.map((k, i) => [k, i]));

function toView(row: Row | undefined): AvailabilityView {
  return {
    availability: (row?.availability ?? []).filter((k): k is SlotKey => order.has(k as SlotKey)),
    topicAsks: row?.topic_asks ?? [],
    tz: row?.tz || DEFAULT_TZ,
  };
}

/** When I'm usually free and which topics I'd join a mixer about (issue 14). */
export async function getAvailability(db: Db, userId: string): Promise<AvailabilityView> {
  const [row] = rowsOf<Row>(await db.execute(sql`select availability, topic_asks, tz from profiles where id = ${userId}`));
  return toView(row);
}

/**
 * Replaces either or both lists. Slots are kept in grid order, asks in the member's order;
 * duplicates are dropped. Every ask must be an active predefined interest (matched without
 * regard to case, stored with the catalogue's spelling).
 */
export async function setAvailability(db: Db, userId: string, input: AvailabilityInput): Promise<AvailabilityView> {
  const slots = input.availability ? [...new Set(input.availability)].sort((a, b) => order.get(a)! - order.get(b)!) : undefined;
  let asks: string[] | undefined;
  if (input.topicAsks) {
    const wanted = [...new Map(input.topicAsks.map((n) => [n.trim().toLocaleLowerCase('en-GB'), n.trim()])).keys()];
    const known = wanted.length
      ? rowsOf<{ name: string }>(
          await db.execute(sql`
            select name from predefined_interests
             where is_active and lower(name) = any(string_to_array(${wanted.join('\u001f')}, ${'\u001f'}))`),
        )
      : [];
    const byLower = new Map(known.map((k) => [k.name.toLocaleLowerCase('en-GB'), k.name]));
    const unknown = wanted.filter((w) => !byLower.has(w));
    if (unknown.length) throw new AppError('validation', AVAILABILITY_MESSAGES.askUnknown, { topicAsks: AVAILABILITY_MESSAGES.askUnknown });
    asks = wanted.map((w) => byLower.get(w)!);
  }
  await ensureProfile(db, userId);
  const [row] = rowsOf<Row>(
    await db.execute(sql`
      update profiles set
        availability = ${slots ? sql`string_to_array(${slots.join(',')}, ',')::text[]` : sql`availability`},
        topic_asks = ${asks ? sql`string_to_array(${asks.join('\u001f')}, ${'\u001f'})::text[]` : sql`topic_asks`},
        updated_at = now()
       where id = ${userId}
      returning availability, topic_asks, tz`),
  );
  return toView(row);
}
