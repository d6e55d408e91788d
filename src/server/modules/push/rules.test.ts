import { describe, expect, it } from 'vitest';
import { coalesced, type DeviceRules, devicesToNotify, inQuietHours, PUSH_COALESCE_MS, pushText, wantsCategory } from './rules';

const device = (over: Partial<DeviceRules> = {}): DeviceRules => ({
  categories: {},
  showPreviews: false,
  quietStart: null,
  quietEnd: null,
  timeZone: 'Europe/London',
  ...over,
});
const message = { category: 'message' as const, url: '/messages/m1', key: 'conversation:m1', name: 'Rhys', detail: 'Fancy a pint?' };

describe('categories', () => {
  it('every category is on until the device turns it off', () => {
    expect(wantsCategory(device(), 'message')).toBe(true);
    expect(wantsCategory(device({ categories: { message: false } }), 'message')).toBe(false);
    expect(wantsCategory(device({ categories: { message: false } }), 'match')).toBe(true);
  });
});

describe('discreet text', () => {
  it('says only that something happened unless previews are on', () => {
    expect(pushText(message, false)).toEqual({
      title: 'Fancy',
      body: 'You have a new message',
      url: '/messages/m1',
      tag: 'conversation:m1',
    });
    for (const category of ['match', 'invitation', 'mixerSoon'] as const) {
      const text = pushText({ ...message, category }, false);
      expect(text.title).toBe('Fancy');
      expect(JSON.stringify(text)).not.toMatch(/Rhys|pint/);
    }
  });
  it('with previews: the name and a clipped, single-line preview', () => {
    expect(pushText(message, true)).toMatchObject({ title: 'Rhys', body: 'Fancy a pint?' });
    const long = pushText({ ...message, detail: `line one\n${'x'.repeat(200)}` }, true);
    expect(long.body.length).toBeLessThanOrEqual(80);
    expect(long.body).not.toContain('\n');
    expect(pushText({ ...message, category: 'match' }, true).body).toBe('You and Rhys fancy each other.');
  });
});

describe('quiet hours', () => {
  const at = (iso: string) => new Date(iso);
  it('a window across midnight holds on both sides of it, in the device’s time zone', () => {
    const rules = { quietStart: 22 * 60, quietEnd: 7 * 60, timeZone: 'Europe/London' };
    expect(inQuietHours(at('2026-01-15T23:30:00Z'), rules)).toBe(true);
    expect(inQuietHours(at('2026-01-16T06:59:00Z'), rules)).toBe(true);
    expect(inQuietHours(at('2026-01-16T07:00:00Z'), rules)).toBe(false);
    expect(inQuietHours(at('2026-01-15T21:59:00Z'), rules)).toBe(false);
    // British Summer Time: 21:30 UTC is 22:30 in London.
    expect(inQuietHours(at('2026-07-15T21:30:00Z'), rules)).toBe(true);
    // The same instant is 09:30 next morning in Auckland: not quiet there.
    expect(inQuietHours(at('2026-07-15T21:30:00Z'), { ...rules, timeZone: 'Pacific/Auckland' })).toBe(false);
    expect(inQuietHours(at('2026-07-15T11:00:00Z'), { ...rules, timeZone: 'Pacific/Auckland' })).toBe(true);
  });
  it('a window within one day, and none when unset or empty', () => {
    const rules = { quietStart: 13 * 60, quietEnd: 14 * 60, timeZone: 'UTC' };
    expect(inQuietHours(at('2026-01-15T13:15:00Z'), rules)).toBe(true);
    expect(inQuietHours(at('2026-01-15T14:00:00Z'), rules)).toBe(false);
    expect(inQuietHours(at('2026-01-15T13:15:00Z'), { ...rules, quietEnd: null })).toBe(false);
    expect(inQuietHours(at('2026-01-15T13:15:00Z'), { ...rules, quietEnd: 13 * 60 })).toBe(false);
  });
});

describe('coalescing', () => {
  it('at most one push per key in 10 minutes', () => {
    const now = new Date('2026-01-15T12:00:00Z');
    expect(coalesced(null, now)).toBe(false);
    expect(coalesced(new Date(now.getTime() - PUSH_COALESCE_MS + 1000), now)).toBe(true);
    expect(coalesced(new Date(now.getTime() - PUSH_COALESCE_MS), now)).toBe(false);
  });
});

describe('which devices', () => {
  it('skips devices in quiet hours or with the category off; each gets its own text', () => {
    const now = new Date('2026-01-15T23:30:00Z');
    const loud = device({ showPreviews: true });
    const quiet = device({ quietStart: 22 * 60, quietEnd: 7 * 60 });
    const off = device({ categories: { message: false } });
    const discreet = device();
    const out = devicesToNotify([loud, quiet, off, discreet], message, now);
    expect(out.map((o) => o.device)).toEqual([loud, discreet]);
    expect(out.map((o) => o.payload.title)).toEqual(['Rhys', 'Fancy']);
  });
});
