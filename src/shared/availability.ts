/**
 * When a member is usually free and which topics they would join a mixer about (issue 14,
 * docs/decisions/011). The weekly grid is seven days × three parts of the day, in the member's
 * own time zone (`profiles.tz`, Europe/London by default). The formation job starts a formed
 * mixer at its slot's start time. Without zod (issue 33): the request's schema is in
 * `schemas/availability.ts`.
 */

export const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Day = (typeof DAYS)[number];
export const PARTS = ['morning', 'afternoon', 'evening'] as const;
export type Part = (typeof PARTS)[number];
export type SlotKey = `${Day}-${Part}`;

export const SLOT_KEYS: readonly SlotKey[] = DAYS.flatMap((d) => PARTS.map((p) => `${d}-${p}` as SlotKey));

export const DAY_LABELS: Record<Day, { short: string; long: string }> = {
  mon: { short: 'Mon', long: 'Monday' },
  tue: { short: 'Tue', long: 'Tuesday' },
  wed: { short: 'Wed', long: 'Wednesday' },
  thu: { short: 'Thu', long: 'Thursday' },
  fri: { short: 'Fri', long: 'Friday' },
  sat: { short: 'Sat', long: 'Saturday' },
  sun: { short: 'Sun', long: 'Sunday' },
};

/** Each part: its label, the hours it covers (shown), and when a formed mixer in it starts (local time). */
export const PART_INFO: Record<Part, { label: string; hours: string; startHour: number; startMinute: number }> = {
  morning: { label: 'Morning', hours: '9am–12pm', startHour: 10, startMinute: 0 },
  afternoon: { label: 'Afternoon', hours: '12–5pm', startHour: 14, startMinute: 0 },
  evening: { label: 'Evening', hours: '6–10pm', startHour: 19, startMinute: 30 },
};

/** A formed mixer lasts this long. */
export const FORMED_MIXER_MINUTES = 60;
/** Topic asks a member may keep at once. */
export const TOPIC_ASKS_MAX = 5;

/** Quick picks above the grid: each fills a common pattern. */
export const AVAILABILITY_PRESETS: { key: string; label: string; slots: readonly SlotKey[] }[] = [
  {
    key: 'weekday-evenings',
    label: 'Weekday evenings',
    slots: ['mon-evening', 'tue-evening', 'wed-evening', 'thu-evening', 'fri-evening'],
  },
  {
    key: 'weekend-daytime',
    label: 'Weekend daytime',
    slots: ['sat-morning', 'sat-afternoon', 'sun-morning', 'sun-afternoon'],
  },
  { key: 'weekend-evenings', label: 'Weekend evenings', slots: ['sat-evening', 'sun-evening'] },
];

export const AVAILABILITY_MESSAGES = {
  slotUnknown: 'Pick times from the weekly grid.',
  askUnknown: 'Pick topics from the interest list.',
  asksTooMany: `You can ask for up to ${TOPIC_ASKS_MAX} topics at a time. Remove one to add another.`,
  nothingToChange: 'Nothing to change',
} as const;

/** GET /api/profile/availability */
export interface AvailabilityView {
  availability: SlotKey[];
  topicAsks: string[];
  /** The member's time zone the grid is read in. */
  tz: string;
}

/** "Weekday evenings · Sat afternoon" — a short summary of a member's grid. */
export function describeAvailability(slots: readonly string[]): string {
  const set = new Set(slots);
  if (!set.size) return 'Not set';
  const parts: string[] = [];
  const left = new Set(set);
  for (const preset of AVAILABILITY_PRESETS) {
    if (preset.slots.every((s) => left.has(s))) {
      parts.push(preset.label);
      for (const s of preset.slots) left.delete(s);
    }
  }
  for (const key of SLOT_KEYS) {
    if (!left.has(key)) continue;
    const [day, part] = key.split('-') as [Day, Part];
    parts.push(`${DAY_LABELS[day].short} ${PART_INFO[part].label.toLowerCase()}`);
  }
  return parts.join(' · ');
}
