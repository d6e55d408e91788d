import { describe, expect, it } from 'vitest';
import type { Side } from '../../../shared/audience';
import type { SlotKey } from '../../../shared/availability';
import { DEFAULT_FORMATION_SETTINGS } from '../../../shared/formation';
import { type Candidate, type GroupingContext, MIXER_MS, type OpenMixer, proposeMixers, rankTopics, topUp } from './grouping';
import { upcomingSlots } from './slots';

const NOW = Date.parse('2026-11-25T12:00:00Z'); // Wednesday
const SLOTS = upcomingSlots(NOW, 24, 7);
const FRI_EVENING = SLOTS.find((s) => s.key === 'fri-evening')!;

let n = 0;
function member(over: Partial<Candidate> = {}): Candidate {
  n++;
  return {
    id: `m${String(n).padStart(4, '0')}`,
    age: 30,
    region: 'Greater London',
    sides: [],
    lookingFor: ['Friends'],
    interests: ['Board games'],
    asks: [],
    availability: ['fri-evening'] as SlotKey[],
    tz: 'Europe/London',
    tier: 1,
    lastActive: NOW,
    invitesThisWeek: 0,
    busy: [],
    ...over,
  };
}
const woman = (over: Partial<Candidate> = {}) =>
  member({ lookingFor: ['Dating'], sides: ['women-into-men', 'everyone'] as Side[], ...over });
const man = (over: Partial<Candidate> = {}) => member({ lookingFor: ['Dating'], sides: ['men-into-women', 'everyone'] as Side[], ...over });
const many = (count: number, make: (i: number) => Candidate) => Array.from({ length: count }, (_, i) => make(i));

function ctx(over: Partial<GroupingContext> = {}): GroupingContext {
  return {
    settings: DEFAULT_FORMATION_SETTINGS,
    slots: SLOTS,
    topics: ['Board games', 'Bouldering', 'Hiking', 'Baking'],
    avoid: new Map(),
    ...over,
  };
}

function sideCounts(p: { members: { side: string }[] }) {
  const counts: Record<string, number> = {};
  for (const m of p.members) counts[m.side] = (counts[m.side] ?? 0) + 1;
  return counts;
}

describe('grouping', () => {
  it('forms a Friends mixer at the slot they share, with the topic they hold, in their region and age band', () => {
    const people = many(8, (i) => member({ age: 28 + i }));
    const [p, ...rest] = proposeMixers(people, ctx());
    expect(rest).toHaveLength(0);
    expect(p).toMatchObject({ intent: 'Friends', topic: 'Board games', region: 'Greater London', seatPlan: [], slot: FRI_EVENING });
    expect(p.members).toHaveLength(8);
    expect(p.members.every((m) => m.side === 'all')).toBe(true);
    expect(p.ageMin).toBeLessThanOrEqual(28);
    expect(p.ageMax).toBeGreaterThanOrEqual(35);
    expect(p.ageMax - p.ageMin).toBeGreaterThanOrEqual(8);
    expect(p.formationKey).toContain('Board games|Greater London|Friends|open|');
  });

  it('never forms a topic again around members who already have an upcoming mixer on it, nor offers anything to members with an unanswered invitation', () => {
    // Eight who already have a Board games mixer coming up, and like Hiking too: a Hiking mixer, never a second Board games one.
    const haveIt = many(8, () => member({ interests: ['Board games', 'Hiking'], upcomingTopics: ['Board games'] }));
    const [p, ...rest] = proposeMixers(haveIt, ctx());
    expect(rest).toHaveLength(0);
    expect(p.topic).toBe('Hiking');
    // With only Board games in common there is nothing to form for them.
    expect(
      proposeMixers(
        many(8, () => member({ upcomingTopics: ['Board games'] })),
        ctx(),
      ),
    ).toEqual([]);
    // Two of eight still have to answer an invitation: six are left, still enough, and the two are not in it.
    const waiting = many(2, () => member({ pendingInvites: 1 }));
    const [q] = proposeMixers([...waiting, ...many(6, () => member())], ctx());
    expect(q.members).toHaveLength(6);
    expect(q.members.some((m) => waiting.some((w) => w.id === m.id))).toBe(false);
  });

  it('forms nothing below minSeats', () => {
    expect(
      proposeMixers(
        many(5, () => member()),
        ctx(),
      ),
    ).toEqual([]);
    // Six people but only five free at one time.
    const split = [...many(5, () => member()), member({ availability: ['sat-morning'] })];
    expect(proposeMixers(split, ctx())).toEqual([]);
  });

  it('keeps every side of a Dating plan within one seat of the others', () => {
    const people = [...many(6, () => woman()), ...many(3, () => man())];
    const [p] = proposeMixers(people, ctx());
    expect(p.planKey).toBe('straight');
    expect(sideCounts(p)).toEqual({ 'women-into-men': 4, 'men-into-women': 3 });
    // 5 women and 2 men cannot make a balanced group of 6.
    const lopsided = [...many(5, () => woman()), ...many(2, () => man())];
    expect(proposeMixers(lopsided, ctx()).filter((x) => x.planKey === 'straight')).toEqual([]);
  });

  it('never puts people who blocked each other or already matched in one mixer', () => {
    const people = many(9, () => member());
    const [a, b, c] = people;
    const avoid = new Map([
      [a.id, new Set([b.id, c.id])],
      [b.id, new Set([a.id])],
      [c.id, new Set([a.id])],
    ]);
    const proposals = proposeMixers(people, ctx({ avoid }));
    expect(proposals).toHaveLength(1);
    const ids = new Set(proposals[0].members.map((m) => m.id));
    expect(ids.has(a.id) && (ids.has(b.id) || ids.has(c.id))).toBe(false);
    expect(ids.size).toBeGreaterThanOrEqual(6);
  });

  it('never overlaps something a member already has, and respects the weekly cap', () => {
    const busy = member({ busy: [[FRI_EVENING.start - 30 * 60_000, FRI_EVENING.start + MIXER_MS - 30 * 60_000]] });
    const capped = member({ invitesThisWeek: DEFAULT_FORMATION_SETTINGS.maxInvitesPerWeek });
    const others = many(6, () => member());
    const [p] = proposeMixers([busy, capped, ...others], ctx());
    const ids = p.members.map((m) => m.id);
    expect(ids).not.toContain(busy.id);
    expect(ids).not.toContain(capped.id);
    expect(ids).toHaveLength(6);
  });

  it('gives each member at most one new mixer per run', () => {
    const people = many(16, (i) =>
      member({ interests: ['Board games', 'Hiking'], availability: ['fri-evening', 'sat-evening'], age: 30 + (i % 3) }),
    );
    const proposals = proposeMixers(people, ctx());
    expect(proposals).toHaveLength(2);
    const all = proposals.flatMap((p) => p.members.map((m) => m.id));
    expect(new Set(all).size).toBe(all.length);
    expect(new Set(proposals.map((p) => p.formationKey)).size).toBe(2);
    // The same demand always proposes the same keys (two racing runs collide on them).
    expect(proposeMixers(people, ctx()).map((p) => p.formationKey)).toEqual(proposals.map((p) => p.formationKey));
  });

  it('prefers reliable members, then recently active ones, when there are more candidates than seats', () => {
    const unreliable = many(4, () => member({ tier: 0, lastActive: NOW }));
    const reliable = many(4, () => member({ tier: 2, lastActive: NOW - 5 * 86_400_000 }));
    const fresh = many(2, () => member({ tier: 1, lastActive: NOW }));
    const stale = many(2, () => member({ tier: 1, lastActive: NOW - 9 * 86_400_000 }));
    const [p] = proposeMixers([...unreliable, ...stale, ...fresh, ...reliable], ctx());
    const ids = new Set(p.members.map((m) => m.id));
    for (const r of [...reliable, ...fresh, ...stale]) expect(ids.has(r.id)).toBe(true);
    for (const u of unreliable) expect(ids.has(u.id)).toBe(false);
  });

  it('lets topic asks beat plain interests', () => {
    const fans = many(5, () => member({ interests: ['Board games', 'Hiking'] }));
    const askers = many(2, () => member({ interests: ['Board games'], asks: ['Bouldering'] }));
    expect(rankTopics([...fans, ...askers], new Set(['Board games', 'Hiking', 'Bouldering']))[0]).toBe('Board games');
    const more = many(2, () => member({ interests: [], asks: ['Bouldering'] }));
    // Bouldering: 4 asks × 3 = 12 beats Board games (7 interests).
    expect(rankTopics([...fans, ...askers, ...more], new Set(['Board games', 'Hiking', 'Bouldering']))[0]).toBe('Bouldering');
    const [p] = proposeMixers([...fans, ...askers, ...more], ctx());
    expect(p.topic).toBe('Bouldering');
  });

  it('does not form topics without an active template', () => {
    const people = many(8, () => member({ interests: ['Pottery'] }));
    expect(proposeMixers(people, ctx())).toEqual([]);
    expect(proposeMixers(people, ctx({ topics: ['Pottery'] }))[0].topic).toBe('Pottery');
  });

  it('keeps Dating age bands around the group and inside 18–99', () => {
    const young = many(4, (i) => woman({ age: 19 + i }));
    const youngMen = many(4, (i) => man({ age: 18 + i }));
    const older = many(4, (i) => man({ age: 55 + i }));
    const [p] = proposeMixers([...young, ...youngMen, ...older], ctx());
    expect(p.ageMin).toBe(18);
    expect(p.ageMax).toBeLessThan(30);
    expect(p.members.map((m) => m.id)).not.toContain(older[0].id);
  });

  it('moves members a region cannot place into an online mixer', () => {
    const people = [
      ...many(3, () => member({ region: 'Mid Wales' })),
      ...many(3, () => member({ region: 'Aberdeen City' })),
      ...many(2, () => member({ region: null })),
    ];
    const [p] = proposeMixers(people, ctx());
    expect(p.region).toBeNull();
    expect(p.members).toHaveLength(8);
  });
});

describe('top-up', () => {
  const mixer = (over: Partial<OpenMixer> = {}): OpenMixer => ({
    id: 'mx1',
    topic: 'Board games',
    intent: 'Dating',
    region: 'Greater London',
    ageMin: 25,
    ageMax: 35,
    seatPlan: [
      { side: 'women-into-men', seats: 4 },
      { side: 'men-into-women', seats: 4 },
    ],
    maxParticipants: 8,
    start: FRI_EVENING.start,
    holding: [],
    known: new Set(),
    ...over,
  });

  it('fills only the free side, with compatible members, reliable first, never twice', () => {
    const held = [...many(4, () => woman()), ...many(3, () => man())];
    const declined = man();
    const candidates = [
      declined,
      man({ tier: 0 }),
      man({ tier: 2, id: 'reliable-man' }),
      woman({ id: 'another-woman' }),
      man({ id: 'too-old', age: 50 }),
      man({ id: 'elsewhere', region: 'North West' }),
      man({ id: 'busy-then', availability: ['sat-morning'] }),
    ];
    const open = mixer({
      holding: held.map((h) => ({ id: h.id, side: h.sides[0] })),
      known: new Set([...held.map((h) => h.id), declined.id]),
    });
    const out = topUp([open], candidates, { settings: DEFAULT_FORMATION_SETTINGS, avoid: new Map() });
    expect(out).toEqual([{ mixerId: 'mx1', members: [{ id: 'reliable-man', side: 'men-into-women' }] }]);
  });

  it('skips someone who blocked a member already in it', () => {
    const held = many(7, () => member({ lookingFor: ['Friends'] }));
    const blocker = member({ id: 'blocker', tier: 2 });
    const fine = member({ id: 'fine' });
    const avoid = new Map([
      ['blocker', new Set([held[0].id])],
      [held[0].id, new Set(['blocker'])],
    ]);
    const open = mixer({
      intent: 'Friends',
      seatPlan: [],
      holding: held.map((h) => ({ id: h.id, side: 'all' })),
      known: new Set(held.map((h) => h.id)),
    });
    const out = topUp([open], [blocker, fine], { settings: DEFAULT_FORMATION_SETTINGS, avoid });
    expect(out[0].members.map((m) => m.id)).toEqual(['fine']);
  });
});
