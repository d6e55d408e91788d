import { describe, expect, it } from 'vitest';
import { hiddenWordMatcher } from '../../../shared/safety/hidden-words';
import { announcementOf, type CollapsibleLine, collapsedReason, NO_PRIVACY, quoteFolded } from './collapsed';

/** Issue 29: the screen reader never reads out a line the screen shows collapsed. */
const ME = 'me';
const line = (over: Partial<CollapsibleLine> = {}): CollapsibleLine => ({
  id: 'l1',
  body: 'Call me on 07700 900123, you idiot',
  senderId: 'maya',
  ...over,
});
const hides = hiddenWordMatcher(['pineapple']);

describe('announcementOf follows collapsedReason', () => {
  it('reads out the words of a line the screen shows', () => {
    expect(collapsedReason(line(), ME, NO_PRIVACY, hides)).toBeNull();
    expect(announcementOf(line(), 'Maya', ME, NO_PRIVACY, hides)).toBe('Maya: Call me on 07700 900123, you idiot');
    // The host (no sender) and the mixer chat's sender object too.
    expect(announcementOf(line({ senderId: undefined, sender: null, body: 'Next prompt' }), 'Fancy', ME, NO_PRIVACY, hides)).toBe(
      'Fancy: Next prompt',
    );
    expect(announcementOf(line({ senderId: undefined, sender: { id: 'maya' } }), 'Maya', ME, NO_PRIVACY, hides)).toMatch(/^Maya: /);
  });

  it('says only who sent a line that shows collapsed, whatever the reason', () => {
    const cases: [string, CollapsibleLine, Parameters<typeof collapsedReason>[2]][] = [
      ['abuse', line({ flag: 'abuse' }), NO_PRIVACY],
      ['words', line({ body: 'I put pineapple on pizza' }), NO_PRIVACY],
      ['muted', line({ sender: { id: 'maya' }, senderId: undefined }), { hiddenLineIds: [], mutedMemberIds: ['maya'] }],
      ['hidden', line(), { hiddenLineIds: ['l1'], mutedMemberIds: [] }],
      ['unsent', line({ unsentAt: '2026-01-01T10:00:00.000Z' }), NO_PRIVACY],
      ['removed', line({ hidden: true }), NO_PRIVACY],
    ];
    for (const [reason, l, privacy] of cases) {
      expect(collapsedReason(l, ME, privacy, hides), reason).toBe(reason);
      const said = announcementOf(l, 'Maya', ME, privacy, hides);
      expect(said, reason).toBe('Maya sent a message');
      expect(said).not.toContain(l.body);
    }
  });

  it('never collapses my own lines (a contact or scam flag does not collapse either)', () => {
    expect(collapsedReason(line({ senderId: ME, flag: 'abuse' }), ME, NO_PRIVACY, hides)).toBeNull();
    expect(collapsedReason(line({ flag: 'contact' }), ME, NO_PRIVACY, hides)).toBeNull();
    expect(collapsedReason(line({ flag: 'scam' }), ME, NO_PRIVACY, hides)).toBeNull();
  });
});

describe('quoteFolded: a quote folds wherever the line it quotes would', () => {
  const quote = { id: 'q1', senderName: 'Rhys', body: 'you are such an idiot', senderId: 'rhys', flag: null };
  const none = () => false;
  it('folds a quote of a flagged line, a line I hid, a member I muted, or one of my hidden words', () => {
    expect(quoteFolded({ ...quote, flag: 'abuse' }, 'maya', NO_PRIVACY, none)).toBe(true);
    expect(quoteFolded(quote, 'maya', { hiddenLineIds: ['q1'], mutedMemberIds: [] }, none)).toBe(true);
    expect(quoteFolded(quote, 'maya', { hiddenLineIds: [], mutedMemberIds: ['rhys'] }, none)).toBe(true);
    expect(quoteFolded(quote, 'maya', NO_PRIVACY, hiddenWordMatcher(['idiot']))).toBe(true);
  });
  it('leaves my own lines, the host, an unavailable quote and an ordinary line as they are', () => {
    expect(quoteFolded({ ...quote, flag: 'abuse' }, 'rhys', NO_PRIVACY, none)).toBe(false);
    expect(quoteFolded({ ...quote, senderId: null }, 'maya', NO_PRIVACY, hiddenWordMatcher(['idiot']))).toBe(false);
    expect(quoteFolded({ id: 'q1', senderName: null, body: null }, 'maya', NO_PRIVACY, none)).toBe(false);
    expect(quoteFolded(quote, 'maya', NO_PRIVACY, none)).toBe(false);
    expect(quoteFolded(null, 'maya', NO_PRIVACY, none)).toBe(false);
  });
});
