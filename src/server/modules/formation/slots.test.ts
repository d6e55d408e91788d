import { describe, expect, it } from 'vitest';
import { bestSlot, slotKeyAt, tzOffsetMs, upcomingSlots, zonedTime } from './slots';

const iso = (t: number) => new Date(t).toISOString();

describe('slot start times', () => {
  it('reads London wall-clock times in BST and in GMT', () => {
    // Summer: 19:30 BST is 18:30 UTC; winter: 19:30 GMT is 19:30 UTC.
    expect(iso(zonedTime(2026, 7, 3, 19, 30, 'Europe/London'))).toBe('2026-07-03T18:30:00.000Z');
    expect(iso(zonedTime(2026, 12, 4, 19, 30, 'Europe/London'))).toBe('2026-12-04T19:30:00.000Z');
    expect(tzOffsetMs(Date.UTC(2026, 6, 1), 'Europe/London')).toBe(3600_000);
    expect(tzOffsetMs(Date.UTC(2026, 0, 1), 'Europe/London')).toBe(0);
  });

  it('keeps local start times across the October clock change', () => {
    // Clocks go back on Sunday 25 October 2026 at 02:00 BST.
    const now = Date.parse('2026-10-22T12:00:00Z');
    const slots = upcomingSlots(now, 24, 7);
    const sat = slots.find((s) => s.key === 'sat-morning');
    const mon = slots.find((s) => s.key === 'mon-morning');
    expect(iso(sat!.start)).toBe('2026-10-24T09:00:00.000Z'); // 10:00 BST
    expect(iso(mon!.start)).toBe('2026-10-26T10:00:00.000Z'); // 10:00 GMT
    for (const s of slots) expect(slotKeyAt(s.start, 'Europe/London')).toBe(s.key);
  });

  it('keeps local start times across the March clock change', () => {
    // Clocks go forward on Sunday 29 March 2026 at 01:00 GMT.
    const slots = upcomingSlots(Date.parse('2026-03-26T12:00:00Z'), 24, 7);
    expect(iso(slots.find((s) => s.key === 'sat-evening')!.start)).toBe('2026-03-28T19:30:00.000Z');
    expect(iso(slots.find((s) => s.key === 'sun-evening')!.start)).toBe('2026-03-29T18:30:00.000Z');
  });

  it('lists only slots between the lead time and the horizon, soonest first', () => {
    const now = Date.parse('2026-11-25T12:00:00Z'); // a Wednesday, GMT
    const slots = upcomingSlots(now, 24, 7);
    expect(slots[0].start).toBeGreaterThanOrEqual(now + 24 * 3600_000);
    expect(slots.at(-1)!.start).toBeLessThanOrEqual(now + 7 * 24 * 3600_000);
    expect(iso(slots[0].start)).toBe('2026-11-26T14:00:00.000Z'); // Thursday afternoon: Thursday 10:00 is before the lead time
    expect(slots.map((s) => s.key)).not.toContain('wed-afternoon');
    expect(slots.map((s) => s.start)).toEqual([...slots.map((s) => s.start)].sort((a, b) => a - b));
    // Six days of three parts each, give or take the ends.
    expect(slots).toHaveLength(18);
    expect(upcomingSlots(now, 48, 1)).toEqual([]);
  });

  it('reads a slot in the member’s own time zone', () => {
    const t = Date.parse('2026-11-27T19:30:00Z'); // Friday 19:30 in London, 20:30 in Paris
    expect(slotKeyAt(t, 'Europe/London')).toBe('fri-evening');
    expect(slotKeyAt(t, 'Europe/Paris')).toBe('fri-evening');
    expect(slotKeyAt(t, 'America/New_York')).toBe('fri-afternoon');
    expect(slotKeyAt(Date.parse('2026-11-27T23:30:00Z'), 'Europe/London')).toBeNull();
  });

  it('chooses the slot most are free, the soonest on a tie', () => {
    const slots = [
      { key: 'thu-evening' as const, start: 1 },
      { key: 'fri-evening' as const, start: 2 },
      { key: 'sat-evening' as const, start: 3 },
    ];
    const freeCount =
      (...members: string[][]) =>
      (slot: { key: string }) => {
        const n = members.filter((m) => m.includes(slot.key)).length;
        return n ? [n] : null;
      };
    expect(bestSlot(slots, freeCount(['fri-evening'], ['fri-evening', 'sat-evening'], ['sat-evening', 'thu-evening']))?.slot.key).toBe(
      'fri-evening',
    );
    expect(bestSlot(slots, freeCount(['sat-evening', 'thu-evening'], ['thu-evening', 'sat-evening']))?.slot.key).toBe('thu-evening');
    expect(bestSlot(slots, freeCount(['sat-evening'], ['sat-evening'], ['fri-evening']))).toMatchObject({ index: 2, score: [2] });
    expect(bestSlot(slots, freeCount(['sun-morning']))).toBeNull();
    // Later elements break ties of earlier ones before time does.
    expect(bestSlot(slots, (s) => [5, s.key === 'sat-evening' ? 2 : 1])?.slot.key).toBe('sat-evening');
  });
});
