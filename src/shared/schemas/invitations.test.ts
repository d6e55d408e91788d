import { describe, expect, it } from 'vitest';
import { invitationWhy, partOfDay } from './invitations';
import { mixerSeatsTaken, takenSeats } from './mixers';

describe('invitationWhy', () => {
  it('says how many others who love the topic are free then', () => {
    expect(invitationWhy(3, 'Bouldering', 'Thursday', 'evening')).toBe('3 people who love Bouldering are free Thursday evening');
    expect(invitationWhy(1, 'Chess', 'Saturday', 'morning')).toBe('1 other person who loves Chess is free Saturday morning');
    expect(invitationWhy(0, 'Chess', 'Sunday', 'afternoon')).toBe('People who love Chess are free Sunday afternoon');
  });

  it('names the part of the day like the availability grid', () => {
    expect([9, 11, 12, 14, 16, 17, 19].map(partOfDay)).toEqual([
      'morning',
      'morning',
      'afternoon',
      'afternoon',
      'afternoon',
      'evening',
      'evening',
    ]);
  });
});

describe('taken seats', () => {
  it('counts seats held for others as taken', () => {
    expect(takenSeats({ joined: 3, held: 2 })).toBe(5);
    expect(mixerSeatsTaken({ participantCount: 3, seats: [{ held: 1 }, { held: 2 }] })).toBe(6);
  });
});
