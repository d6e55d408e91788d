import { describe, expect, it } from 'vitest';
import {
  applyReaction,
  clientKeySchema,
  EDIT_WINDOW_MS,
  isReaction,
  myReaction,
  nextReaction,
  REACTIONS,
  reactionInputSchema,
  snippetOf,
  withinEditWindow,
} from './chat';

const maya = { id: 'm', firstName: 'Maya' };
const rhys = { id: 'r', firstName: 'Rhys' };

describe('reaction rules', () => {
  it('the same reaction removes mine, another replaces it', () => {
    expect(nextReaction(null, '🔥')).toBe('🔥');
    expect(nextReaction('🔥', '🔥')).toBeNull();
    expect(nextReaction('🔥', '😂')).toBe('😂');
  });

  it('only the fixed set is accepted', () => {
    expect(REACTIONS).toEqual(['❤️', '😂', '👍', '😮', '😢', '🔥']);
    for (const r of REACTIONS) expect(reactionInputSchema.safeParse({ emoji: r }).success).toBe(true);
    for (const bad of ['💩', '', '❤', '🔥🔥', 1, null]) expect(reactionInputSchema.safeParse({ emoji: bad }).success).toBe(false);
    expect(isReaction('👍')).toBe(true);
    expect(isReaction('👎')).toBe(false);
  });

  it('applying keeps one per member, drops empty groups and keeps first-seen order', () => {
    let groups = applyReaction([], maya, '😂');
    groups = applyReaction(groups, rhys, '🔥');
    expect(groups).toEqual([
      { emoji: '😂', by: [maya] },
      { emoji: '🔥', by: [rhys] },
    ]);
    groups = applyReaction(groups, maya, '🔥');
    expect(groups).toEqual([{ emoji: '🔥', by: [rhys, maya] }]);
    expect(myReaction(groups, 'm')).toBe('🔥');
    // Applying the same event twice changes nothing (events can arrive on two rooms).
    expect(applyReaction(groups, maya, '🔥')).toEqual(groups);
    groups = applyReaction(groups, rhys, null);
    expect(groups).toEqual([{ emoji: '🔥', by: [maya] }]);
    expect(myReaction(groups, 'r')).toBeNull();
  });
});

describe('edit window and quotes', () => {
  it('edits are allowed for 15 minutes after sending', () => {
    const sent = new Date('2026-11-28T10:00:00Z');
    expect(withinEditWindow(sent, new Date(sent.getTime() + EDIT_WINDOW_MS - 1))).toBe(true);
    expect(withinEditWindow(sent, new Date(sent.getTime() + EDIT_WINDOW_MS))).toBe(false);
  });

  it('a quote is one line of at most 140 characters', () => {
    expect(snippetOf('  two\n lines  ')).toBe('two lines');
    const long = snippetOf('x'.repeat(500));
    expect(long).toHaveLength(140);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('idempotency keys', () => {
  it('accepts UUIDs and refuses keys that are too short, too long or carry other characters', () => {
    expect(clientKeySchema.safeParse('3f1c2a9e-1b2c-4d5e-8f90-123456789abc').success).toBe(true);
    for (const bad of ['short', 'a'.repeat(65), 'has space here', "quote'key-123"])
      expect(clientKeySchema.safeParse(bad).success).toBe(false);
  });
});
