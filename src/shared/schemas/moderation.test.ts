import { describe, expect, it } from 'vitest';
import {
  APPEAL_DAYS,
  appealOpen,
  hiddenByReports,
  isOverdue,
  mayDecideAppeal,
  moderationActSchema,
  queueOrder,
  SEVERE_REASONS,
  severityOf,
  TARGET_HOURS,
} from './moderation';
import { REPORT_REASONS } from './safety';

const HOUR = 3_600_000;
const at = (hoursAgo: number, now = Date.UTC(2026, 10, 28, 12)) => new Date(now - hoursAgo * HOUR).toISOString();

describe('severity', () => {
  it('puts threats, under-18s, child sexual content and imminent harm first; every other reason after', () => {
    expect(SEVERE_REASONS.map(severityOf)).toEqual([0, 0, 0, 0]);
    for (const r of REPORT_REASONS.filter((r) => !SEVERE_REASONS.includes(r))) expect(severityOf(r)).toBe(1);
    expect(severityOf('not a reason')).toBe(1);
    expect(TARGET_HOURS).toEqual({ 0: 1, 1: 24 });
  });

  it('orders the queue by severity, then by age (oldest first)', () => {
    const groups = [
      { id: 'new-mild', severity: 1, oldestAt: at(1) },
      { id: 'old-mild', severity: 1, oldestAt: at(30) },
      { id: 'new-severe', severity: 0, oldestAt: at(0.1) },
      { id: 'old-severe', severity: 0, oldestAt: at(2) },
    ];
    expect(queueOrder(groups).map((g) => g.id)).toEqual(['old-severe', 'new-severe', 'old-mild', 'new-mild']);
  });

  it('turns overdue past the target of its severity', () => {
    const now = Date.UTC(2026, 10, 28, 12);
    expect(isOverdue(0, at(0.9, now), now)).toBe(false);
    expect(isOverdue(0, at(1.1, now), now)).toBe(true);
    expect(isOverdue(1, at(23, now), now)).toBe(false);
    expect(isOverdue(1, at(25, now), now)).toBe(true);
  });
});

describe('the two-reporter rule', () => {
  it('hides a line only when two different members reported it', () => {
    expect(hiddenByReports([])).toBe(false);
    expect(hiddenByReports(['maya'])).toBe(false);
    expect(hiddenByReports(['maya', 'maya', 'maya'])).toBe(false);
    expect(hiddenByReports(['maya', 'rhys'])).toBe(true);
  });
});

describe('appeals', () => {
  it('are open for 14 days after the action, not a moment more', () => {
    const acted = Date.UTC(2026, 10, 1);
    expect(appealOpen(new Date(acted), acted + APPEAL_DAYS * 24 * HOUR)).toBe(true);
    expect(appealOpen(new Date(acted), acted + APPEAL_DAYS * 24 * HOUR + 1)).toBe(false);
  });

  it('are decided by an admin other than the one who acted', () => {
    expect(mayDecideAppeal('ada', 'ada')).toBe(false);
    expect(mayDecideAppeal('ada', 'ben')).toBe(true);
    expect(mayDecideAppeal(null, 'ben')).toBe(true);
  });
});

describe('a moderator decision', () => {
  it('names a rule for every action but dismiss, and a length of 1, 7 or 30 days for mute and suspend', () => {
    expect(moderationActSchema.safeParse({ action: 'dismiss' }).success).toBe(true);
    expect(moderationActSchema.safeParse({ action: 'warn' }).success).toBe(false);
    expect(moderationActSchema.safeParse({ action: 'warn', rule: 'hate' }).success).toBe(true);
    expect(moderationActSchema.safeParse({ action: 'warn', rule: 'rudeness' }).success).toBe(false);
    expect(moderationActSchema.safeParse({ action: 'mute', rule: 'hate' }).success).toBe(false);
    expect(moderationActSchema.safeParse({ action: 'mute', rule: 'hate', days: 3 }).success).toBe(false);
    for (const days of [1, 7, 30]) expect(moderationActSchema.safeParse({ action: 'suspend', rule: 'hate', days }).success).toBe(true);
    expect(moderationActSchema.safeParse({ action: 'delete', rule: 'hate' }).success).toBe(false);
  });
});
