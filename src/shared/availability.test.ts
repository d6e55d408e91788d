import { describe, expect, it } from 'vitest';
import { AVAILABILITY_MESSAGES, AVAILABILITY_PRESETS, describeAvailability, SLOT_KEYS, TOPIC_ASKS_MAX } from './availability';
import { availabilitySchema } from './schemas/availability';

describe('describeAvailability', () => {
  it('says "Not set" for an empty grid', () => {
    expect(describeAvailability([])).toBe('Not set');
  });

  it('names a whole preset once, then the remaining slots in grid order', () => {
    const weekdayEvenings = AVAILABILITY_PRESETS[0].slots;
    expect(describeAvailability([...weekdayEvenings])).toBe('Weekday evenings');
    expect(describeAvailability(['sat-afternoon', ...weekdayEvenings, 'mon-morning'])).toBe(
      'Weekday evenings · Mon morning · Sat afternoon',
    );
    expect(describeAvailability(['sun-evening', 'sat-evening', 'sat-morning', 'sat-afternoon', 'sun-morning', 'sun-afternoon'])).toBe(
      'Weekend daytime · Weekend evenings',
    );
  });

  it('does not call a partial preset by its name', () => {
    expect(describeAvailability(['mon-evening', 'tue-evening'])).toBe('Mon evening · Tue evening');
  });

  it('covers all 21 slots', () => {
    expect(SLOT_KEYS).toHaveLength(21);
    expect(describeAvailability(SLOT_KEYS)).toContain('Weekday evenings');
  });
});

describe('availabilitySchema', () => {
  it('accepts either list or both', () => {
    expect(availabilitySchema.safeParse({ availability: ['mon-evening'] }).success).toBe(true);
    expect(availabilitySchema.safeParse({ topicAsks: ['Hiking'] }).success).toBe(true);
    expect(availabilitySchema.safeParse({ availability: [], topicAsks: [] }).success).toBe(true);
  });

  it('trims topic names', () => {
    expect(availabilitySchema.parse({ topicAsks: ['  Hiking '] }).topicAsks).toEqual(['Hiking']);
  });

  it('refuses with the right message', () => {
    const message = (v: unknown) => availabilitySchema.safeParse(v).error?.issues[0]?.message;
    expect(message({})).toBe(AVAILABILITY_MESSAGES.nothingToChange);
    expect(message({ availability: ['mon-night'] })).toBe(AVAILABILITY_MESSAGES.slotUnknown);
    expect(message({ topicAsks: ['  '] })).toBe(AVAILABILITY_MESSAGES.askUnknown);
    expect(message({ topicAsks: ['x'.repeat(61)] })).toBe(AVAILABILITY_MESSAGES.askUnknown);
    expect(message({ topicAsks: Array.from({ length: TOPIC_ASKS_MAX + 1 }, (_, i) => `Topic ${i}`) })).toBe(
      AVAILABILITY_MESSAGES.asksTooMany,
    );
    expect(availabilitySchema.safeParse({ availability: ['mon-evening'], extra: 1 }).success).toBe(false);
  });
});
