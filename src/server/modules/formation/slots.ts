import { DAYS, type Day, PART_INFO, PARTS, type Part, type SlotKey } from '../../../shared/availability';

/**
 * Concrete start times of the weekly grid's slots (issue 14, docs/decisions/012). A slot key
 * (`fri-evening`) is read in a time zone (Europe/London by default): its start is the part's
 * local start time (19:30 for evenings) on that weekday, whatever the UTC offset is that day
 * (BST or GMT). Pure: no clock, no database.
 */

export const DEFAULT_TZ = 'Europe/London';
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-GB', {
        timeZone: tz,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        weekday: 'short',
      });
    } catch {
      f = formatter(DEFAULT_TZ);
    }
    formatters.set(tz, f);
  }
  return f;
}

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  weekday: Day;
}

/** The wall-clock date and time at `t` in `tz`. */
export function localParts(t: number, tz: string): LocalParts {
  const out: Record<string, string> = {};
  for (const p of formatter(tz).formatToParts(new Date(t))) out[p.type] = p.value;
  return {
    year: Number(out.year),
    month: Number(out.month),
    day: Number(out.day),
    hour: Number(out.hour),
    minute: Number(out.minute),
    weekday: out.weekday.slice(0, 3).toLowerCase() as Day,
  };
}

/** Milliseconds `tz` is ahead of UTC at instant `t` (BST: one hour, GMT: zero). */
export function tzOffsetMs(t: number, tz: string): number {
  const p = localParts(t, tz);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
  return asUtc - Math.floor(t / 60_000) * 60_000;
}

/** The instant a wall-clock time in `tz` happens (times skipped by a clock change move forward). */
export function zonedTime(year: number, month: number, day: number, hour: number, minute: number, tz: string): number {
  const guess = Date.UTC(year, month - 1, day, hour, minute);
  const first = guess - tzOffsetMs(guess, tz);
  return guess - tzOffsetMs(first, tz);
}

const slotKeyMemo = new Map<string, SlotKey | null>();

/** Which slot of the grid instant `t` falls in, read in `tz`; null outside every part's hours. Memoised (pure). */
export function slotKeyAt(t: number, tz: string): SlotKey | null {
  const memo = `${tz}|${t}`;
  const hit = slotKeyMemo.get(memo);
  if (hit !== undefined) return hit;
  if (slotKeyMemo.size > 10_000) slotKeyMemo.clear();
  const key = computeSlotKey(t, tz);
  slotKeyMemo.set(memo, key);
  return key;
}

function computeSlotKey(t: number, tz: string): SlotKey | null {
  const p = localParts(t, tz);
  const minutes = p.hour * 60 + p.minute;
  const part: Part | null =
    minutes >= 9 * 60 && minutes < 12 * 60
      ? 'morning'
      : minutes < 17 * 60 && minutes >= 12 * 60
        ? 'afternoon'
        : minutes >= 18 * 60 && minutes < 22 * 60
          ? 'evening'
          : null;
  return part ? `${p.weekday}-${part}` : null;
}

export interface Slot {
  key: SlotKey;
  /** Epoch milliseconds. */
  start: number;
}

/**
 * Every slot start between `now + leadHours` and `now + horizonDays` (both inclusive), read in
 * `tz`, soonest first.
 */
export function upcomingSlots(now: number, leadHours: number, horizonDays: number, tz = DEFAULT_TZ): Slot[] {
  const from = now + leadHours * HOUR_MS;
  const to = now + horizonDays * DAY_MS;
  if (to < from) return [];
  const slots: Slot[] = [];
  // Walk local calendar days from the day before `from` to the day after `to` (noon UTC keeps clear of changes).
  const first = localParts(from - DAY_MS, tz);
  let cursor = Date.UTC(first.year, first.month - 1, first.day, 12);
  const end = to + 2 * DAY_MS;
  for (; cursor <= end; cursor += DAY_MS) {
    const d = new Date(cursor);
    const weekday = DAYS[(d.getUTCDay() + 6) % 7];
    for (const part of PARTS) {
      const info = PART_INFO[part];
      const start = zonedTime(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), info.startHour, info.startMinute, tz);
      if (start >= from && start <= to) slots.push({ key: `${weekday}-${part}`, start });
    }
  }
  return slots.sort((a, b) => a.start - b.start);
}

/**
 * The slot a group should meet at: the best `score` (compared element by element, higher
 * first — e.g. [how many are free]); ties go to the soonest. `score` returns null for a slot
 * that cannot be used. Null when none can.
 */
export function bestSlot(
  slots: readonly Slot[],
  score: (slot: Slot, index: number) => readonly number[] | null,
): { slot: Slot; index: number; score: readonly number[] } | null {
  let best: { slot: Slot; index: number; score: readonly number[] } | null = null;
  for (let index = 0; index < slots.length; index++) {
    const slot = slots[index];
    const s = score(slot, index);
    if (!s) continue;
    if (!best) {
      best = { slot, index, score: s };
      continue;
    }
    let cmp = 0;
    for (let k = 0; k < s.length && cmp === 0; k++) cmp = s[k] - (best.score[k] ?? 0);
    if (cmp > 0 || (cmp === 0 && slot.start < best.slot.start)) best = { slot, index, score: s };
  }
  return best;
}
