import { describe, expect, it } from 'vitest';
import { GENDER_OPTIONS, ORIENTATION_OPTIONS, PREDEFINED_INTERESTS } from '../../../shared/reference/catalog';
import { UK_CITIES } from '../../../shared/reference/uk-cities';
import { fittingPools, ineligibility, memberFacts, seatPools } from '../../../shared/audience';
import { audienceSchema } from '../../../shared/schemas/audience';
import { demoAudience, demoSides } from './demo';
import { DEMO_ACCOUNT_KEYS, DEMO_CHAT, DEMO_MEMBERS, DEMO_MIXERS, DEMO_PASSWORD, MIXER_THEMES, type DemoMixer } from './demo-data';

/** Ages are checked against a fixed reference date so the test never drifts. */
const REFERENCE_DATE = { year: 2026, month: 11, day: 22 };

function ageOn(dob: string, on = REFERENCE_DATE): number {
  const [year, month, day] = dob.split('-').map(Number) as [number, number, number];
  let age = on.year - year;
  if (on.month < month || (on.month === month && on.day < day)) age -= 1;
  return age;
}

function isValidIsoDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

const interestNames = new Set(PREDEFINED_INTERESTS.map((i) => i.name));
const cityNames = new Set(UK_CITIES.map((c) => c.name));
const memberKeys = new Set(DEMO_MEMBERS.map((m) => m.key));
const mixersByKey = new Map(DEMO_MIXERS.map((m) => [m.key, m]));

type Phase = 'live' | 'upcoming' | 'ended';

function phaseOf(mixer: DemoMixer): Phase {
  const end = mixer.startOffsetMinutes + mixer.durationMinutes;
  if (mixer.startOffsetMinutes > 0) return 'upcoming';
  if (end > 0) return 'live';
  return 'ended';
}

describe('DEMO_MEMBERS', () => {
  it('has exactly 40 members', () => {
    expect(DEMO_MEMBERS).toHaveLength(40);
  });

  it('has unique slug keys and unique demo emails', () => {
    expect(memberKeys.size).toBe(DEMO_MEMBERS.length);
    const emails = DEMO_MEMBERS.map((m) => m.email.toLowerCase());
    expect(new Set(emails).size).toBe(emails.length);
    for (const m of DEMO_MEMBERS) {
      expect(m.key).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
      expect(m.email).toBe(`${m.key}@demo.fancy.test`);
    }
  });

  it('has unique full names of at most 30 characters', () => {
    const names = DEMO_MEMBERS.map((m) => m.fullName);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) {
      expect(name.trim().split(/\s+/).length, name).toBeGreaterThanOrEqual(2);
      expect(name.length, name).toBeLessThanOrEqual(30);
    }
  });

  it('has valid dates of birth with ages from 18 to 60 on 2026-11-22', () => {
    const ages = DEMO_MEMBERS.map((m) => {
      expect(isValidIsoDate(m.dob), `${m.key}: ${m.dob}`).toBe(true);
      return ageOn(m.dob);
    });
    for (const [i, age] of ages.entries()) {
      expect(age, DEMO_MEMBERS[i]!.key).toBeGreaterThanOrEqual(18);
      expect(age, DEMO_MEMBERS[i]!.key).toBeLessThanOrEqual(60);
    }
    expect(ages.some((a) => a <= 19)).toBe(true);
    expect(ages.some((a) => a >= 55)).toBe(true);
  });

  it('computes ages around birthdays correctly', () => {
    expect(ageOn('2008-11-22')).toBe(18);
    expect(ageOn('2008-11-23')).toBe(17);
    expect(ageOn('1966-11-23')).toBe(59);
  });

  it('uses known pronouns or null', () => {
    for (const m of DEMO_MEMBERS) {
      expect([null, 'she/her', 'he/him', 'they/them']).toContain(m.pronouns);
    }
  });

  it('has exactly one gender identity from GENDER_OPTIONS', () => {
    for (const m of DEMO_MEMBERS) {
      expect(m.genderIdentities, m.key).toHaveLength(1);
      expect(GENDER_OPTIONS, m.key).toContain(m.genderIdentities[0]);
    }
  });

  it('has zero to three distinct orientations from ORIENTATION_OPTIONS', () => {
    for (const m of DEMO_MEMBERS) {
      expect(m.sexualOrientations.length, m.key).toBeLessThanOrEqual(3);
      expect(new Set(m.sexualOrientations).size, m.key).toBe(m.sexualOrientations.length);
      for (const o of m.sexualOrientations) expect(ORIENTATION_OPTIONS, m.key).toContain(o);
    }
  });

  it('looks for one to three distinct things', () => {
    for (const m of DEMO_MEMBERS) {
      expect(m.lookingFor.length, m.key).toBeGreaterThanOrEqual(1);
      expect(m.lookingFor.length, m.key).toBeLessThanOrEqual(3);
      expect(new Set(m.lookingFor).size, m.key).toBe(m.lookingFor.length);
      for (const l of m.lookingFor) expect(['Dating', 'Friends', 'Casual']).toContain(l);
    }
  });

  it('has 4 to 12 distinct interests that exist in PREDEFINED_INTERESTS', () => {
    for (const m of DEMO_MEMBERS) {
      expect(m.interests.length, m.key).toBeGreaterThanOrEqual(4);
      expect(m.interests.length, m.key).toBeLessThanOrEqual(12);
      expect(new Set(m.interests).size, m.key).toBe(m.interests.length);
      const unknown = m.interests.filter((i) => !interestNames.has(i));
      expect(unknown, m.key).toEqual([]);
    }
  });

  it('uses city names from UK_CITIES, mostly shared', () => {
    for (const m of DEMO_MEMBERS) {
      if (m.city !== null) expect(cityNames.has(m.city), `${m.key}: ${m.city}`).toBe(true);
      if (m.city === null) expect(m.shareCity, m.key).toBe(false);
    }
    expect(DEMO_MEMBERS.filter((m) => m.city === null).length).toBeLessThanOrEqual(4);
    expect(DEMO_MEMBERS.filter((m) => m.shareCity).length).toBeGreaterThan(DEMO_MEMBERS.length / 2);
  });

  it('has bios of 60 to 400 characters', () => {
    for (const m of DEMO_MEMBERS) {
      expect(m.bio.trim(), m.key).toBe(m.bio);
      expect(m.bio.length, m.key).toBeGreaterThanOrEqual(60);
      expect(m.bio.length, m.key).toBeLessThanOrEqual(400);
    }
    expect(new Set(DEMO_MEMBERS.map((m) => m.bio)).size).toBe(DEMO_MEMBERS.length);
  });

  it('has prompt answers of 60 to 200 characters each', () => {
    const prompts = ['smallJoy', 'loveToTalkAbout', 'valueInRelationships', 'sharedExperience'] as const;
    const tooShortOrLong: string[] = [];
    for (const m of DEMO_MEMBERS) {
      for (const p of prompts) {
        const answer = m[p];
        if (answer.trim() !== answer || answer.length < 60 || answer.length > 200) {
          tooShortOrLong.push(`${m.key}.${p} (${answer.length})`);
        }
      }
    }
    expect(tooShortOrLong).toEqual([]);
  });

  it('has avatar hues between 0 and 359', () => {
    for (const m of DEMO_MEMBERS) {
      expect(Number.isInteger(m.avatarHue), m.key).toBe(true);
      expect(m.avatarHue, m.key).toBeGreaterThanOrEqual(0);
      expect(m.avatarHue, m.key).toBeLessThanOrEqual(359);
    }
  });
});

describe('demo accounts', () => {
  const [first, second] = DEMO_ACCOUNT_KEYS;
  const a = DEMO_MEMBERS.find((m) => m.key === first);
  const b = DEMO_MEMBERS.find((m) => m.key === second);

  it('uses the first two members, who both exist', () => {
    expect(DEMO_ACCOUNT_KEYS).toHaveLength(2);
    expect(first).toBe(DEMO_MEMBERS[0]!.key);
    expect(second).toBe(DEMO_MEMBERS[1]!.key);
    expect(a).toBeDefined();
    expect(b).toBeDefined();
  });

  it('has a demo password', () => {
    expect(DEMO_PASSWORD).toBe('mixer-demo-2026');
  });

  it('are both looking for dating and share interests', () => {
    expect(a!.lookingFor).toContain('Dating');
    expect(b!.lookingFor).toContain('Dating');
    const shared = a!.interests.filter((i) => b!.interests.includes(i));
    expect(shared.length).toBeGreaterThanOrEqual(2);
  });

  it('share a live mixer with at least two free seats', () => {
    const shared = DEMO_MIXERS.filter(
      (m) =>
        phaseOf(m) === 'live' &&
        m.memberKeys.includes(first) &&
        m.memberKeys.includes(second) &&
        m.maxParticipants - m.memberKeys.length >= 2,
    );
    expect(shared.length).toBeGreaterThanOrEqual(1);
  });

  it('share an ended mixer', () => {
    const shared = DEMO_MIXERS.filter((m) => phaseOf(m) === 'ended' && m.memberKeys.includes(first) && m.memberKeys.includes(second));
    expect(shared.length).toBeGreaterThanOrEqual(1);
  });
});

describe('DEMO_MIXERS', () => {
  it('has exactly 22 mixers with unique keys and titles', () => {
    expect(DEMO_MIXERS).toHaveLength(22);
    expect(mixersByKey.size).toBe(22);
    expect(new Set(DEMO_MIXERS.map((m) => m.title)).size).toBe(22);
  });

  it('splits into 4 live, 15 upcoming and 3 ended', () => {
    const live = DEMO_MIXERS.filter((m) => phaseOf(m) === 'live');
    const upcoming = DEMO_MIXERS.filter((m) => phaseOf(m) === 'upcoming');
    const ended = DEMO_MIXERS.filter((m) => phaseOf(m) === 'ended');
    expect(live).toHaveLength(4);
    expect(upcoming).toHaveLength(15);
    expect(ended).toHaveLength(3);

    for (const m of live) {
      // Started 5–40 minutes ago and still running.
      expect(m.startOffsetMinutes, m.key).toBeGreaterThanOrEqual(-40);
      expect(m.startOffsetMinutes, m.key).toBeLessThanOrEqual(-5);
      expect(m.startOffsetMinutes + m.durationMinutes, m.key).toBeGreaterThan(0);
    }
    for (const m of upcoming) {
      // Starts between 30 minutes and 6.5 days from now.
      expect(m.startOffsetMinutes, m.key).toBeGreaterThanOrEqual(30);
      expect(m.startOffsetMinutes, m.key).toBeLessThanOrEqual(6.5 * 24 * 60);
    }
    for (const m of ended) {
      // Ended between one and three days ago.
      const endedMinutesAgo = -(m.startOffsetMinutes + m.durationMinutes);
      expect(endedMinutesAgo, m.key).toBeGreaterThanOrEqual(24 * 60);
      expect(endedMinutesAgo, m.key).toBeLessThanOrEqual(3 * 24 * 60);
    }
  });

  it('has durations of 45 to 120 minutes and 4 to 10 seats', () => {
    for (const m of DEMO_MIXERS) {
      expect(m.durationMinutes, m.key).toBeGreaterThanOrEqual(45);
      expect(m.durationMinutes, m.key).toBeLessThanOrEqual(120);
      expect(m.maxParticipants, m.key).toBeGreaterThanOrEqual(4);
      expect(m.maxParticipants, m.key).toBeLessThanOrEqual(10);
    }
    const typical = DEMO_MIXERS.filter((m) => m.maxParticipants >= 6 && m.maxParticipants <= 8);
    expect(typical.length).toBeGreaterThan(DEMO_MIXERS.length / 2);
  });

  it('has inviting descriptions and icebreakers of sensible length', () => {
    for (const m of DEMO_MIXERS) {
      expect(m.title.length, m.key).toBeGreaterThan(0);
      expect(m.topic.length, m.key).toBeGreaterThan(0);
      expect(m.description.length, m.key).toBeGreaterThanOrEqual(80);
      expect(m.description.length, m.key).toBeLessThanOrEqual(300);
      expect(m.icebreaker.length, m.key).toBeGreaterThanOrEqual(40);
      expect(m.icebreaker.length, m.key).toBeLessThanOrEqual(160);
    }
  });

  it('uses known themes and intents', () => {
    for (const m of DEMO_MIXERS) {
      expect(MIXER_THEMES, m.key).toContain(m.theme);
      expect(['Dating', 'Friends', 'Casual'], m.key).toContain(m.intent);
    }
  });

  it('has 1 to 4 distinct tags from PREDEFINED_INTERESTS', () => {
    for (const m of DEMO_MIXERS) {
      expect(m.tags.length, m.key).toBeGreaterThanOrEqual(1);
      expect(m.tags.length, m.key).toBeLessThanOrEqual(4);
      expect(new Set(m.tags).size, m.key).toBe(m.tags.length);
      const unknown = m.tags.filter((t) => !interestNames.has(t));
      expect(unknown, m.key).toEqual([]);
    }
  });

  it('has 2..maxParticipants distinct, existing members', () => {
    for (const m of DEMO_MIXERS) {
      expect(new Set(m.memberKeys).size, m.key).toBe(m.memberKeys.length);
      expect(m.memberKeys.length, m.key).toBeGreaterThanOrEqual(2);
      expect(m.memberKeys.length, m.key).toBeLessThanOrEqual(m.maxParticipants);
      const unknown = m.memberKeys.filter((k) => !memberKeys.has(k));
      expect(unknown, m.key).toEqual([]);
    }
    const typical = DEMO_MIXERS.filter((m) => m.memberKeys.length >= 3 && m.memberKeys.length <= 6);
    expect(typical.length).toBeGreaterThan(DEMO_MIXERS.length / 2);
  });

  it('covers a variety of topics', () => {
    expect(new Set(DEMO_MIXERS.map((m) => m.topic.toLowerCase())).size).toBeGreaterThanOrEqual(15);
  });

  it('does not double-book a member into overlapping mixers', () => {
    for (const key of memberKeys) {
      const joined = DEMO_MIXERS.filter((m) => m.memberKeys.includes(key)).sort((x, y) => x.startOffsetMinutes - y.startOffsetMinutes);
      for (let i = 1; i < joined.length; i += 1) {
        const prev = joined[i - 1]!;
        const next = joined[i]!;
        expect(next.startOffsetMinutes, `${key}: ${prev.key} / ${next.key}`).toBeGreaterThanOrEqual(
          prev.startOffsetMinutes + prev.durationMinutes,
        );
      }
    }
  });
});

describe('DEMO_CHAT', () => {
  it('has around 40 lines', () => {
    expect(DEMO_CHAT.length).toBeGreaterThanOrEqual(35);
    expect(DEMO_CHAT.length).toBeLessThanOrEqual(50);
  });

  it('only posts in live or ended mixers, and covers all of them', () => {
    const posted = new Set(DEMO_CHAT.map((l) => l.mixerKey));
    for (const line of DEMO_CHAT) {
      const mixer = mixersByKey.get(line.mixerKey);
      expect(mixer, line.mixerKey).toBeDefined();
      expect(phaseOf(mixer!), line.mixerKey).not.toBe('upcoming');
    }
    for (const m of DEMO_MIXERS) {
      if (phaseOf(m) !== 'upcoming') expect(posted.has(m.key), m.key).toBe(true);
    }
  });

  it('is spoken by members of the mixer', () => {
    for (const line of DEMO_CHAT) {
      const mixer = mixersByKey.get(line.mixerKey)!;
      expect(mixer.memberKeys, `${line.mixerKey}: ${line.memberKey}`).toContain(line.memberKey);
    }
  });

  it('is timed within the running time of its mixer', () => {
    for (const line of DEMO_CHAT) {
      const mixer = mixersByKey.get(line.mixerKey)!;
      const startedMinutesAgo = -mixer.startOffsetMinutes;
      const endedMinutesAgo = Math.max(0, -(mixer.startOffsetMinutes + mixer.durationMinutes));
      const label = `${line.mixerKey} @ ${line.minutesAgo}`;
      expect(Number.isInteger(line.minutesAgo), label).toBe(true);
      expect(line.minutesAgo, label).toBeLessThanOrEqual(startedMinutesAgo);
      expect(line.minutesAgo, label).toBeGreaterThanOrEqual(endedMinutesAgo);
    }
  });

  it('is in chronological order within each mixer', () => {
    const lastSeen = new Map<string, number>();
    for (const line of DEMO_CHAT) {
      const previous = lastSeen.get(line.mixerKey);
      if (previous !== undefined) expect(line.minutesAgo, line.mixerKey).toBeLessThanOrEqual(previous);
      lastSeen.set(line.mixerKey, line.minutesAgo);
    }
  });

  it('has non-empty message bodies of chat length', () => {
    for (const line of DEMO_CHAT) {
      expect(line.body.trim(), line.body).toBe(line.body);
      expect(line.body.length, line.body).toBeGreaterThan(0);
      expect(line.body.length, line.body).toBeLessThanOrEqual(500);
    }
  });
});

describe('demo audiences (issue 13)', () => {
  const today = '2026-11-22';
  const member = (key: string) => DEMO_MEMBERS.find((m) => m.key === key) as (typeof DEMO_MEMBERS)[number];
  const facts = (key: string) => memberFacts(member(key), today);

  it('seats every member on a side of a mixer whose audience they are in, never overfilling a side', () => {
    for (const mx of DEMO_MIXERS) {
      const audience = demoAudience(mx);
      expect(audienceSchema.safeParse(audience).success, mx.key).toBe(true);
      for (const key of mx.memberKeys) expect(ineligibility(audience, facts(key)), `${mx.key}: ${key}`).toBeNull();
      const sides = demoSides(mx, audience);
      for (const pool of seatPools(audience.seatPlan, mx.maxParticipants)) {
        expect(sides.filter((s) => s === pool.key).length, `${mx.key} ${pool.key}`).toBeLessThanOrEqual(pool.seats);
      }
      if (mx.intent !== 'Dating') expect(audience.seatPlan, mx.key).toEqual([]);
    }
  });

  it('gives the demo accounts a live mixer they are both in and eligible for', () => {
    const [a, b] = DEMO_ACCOUNT_KEYS;
    const shared = DEMO_MIXERS.filter(
      (m) =>
        phaseOf(m) === 'live' &&
        m.memberKeys.includes(a) &&
        m.memberKeys.includes(b) &&
        !ineligibility(demoAudience(m), facts(a)) &&
        !ineligibility(demoAudience(m), facts(b)),
    );
    expect(shared.length).toBeGreaterThanOrEqual(1);
  });

  it('leaves each demo account several live or upcoming mixers to be picked for them', () => {
    for (const key of DEMO_ACCOUNT_KEYS) {
      const open = DEMO_MIXERS.filter(
        (m) => phaseOf(m) !== 'ended' && !m.memberKeys.includes(key) && !ineligibility(demoAudience(m), facts(key)),
      );
      expect(open.length, key).toBeGreaterThanOrEqual(5);
    }
  });

  it('has a mixer whose women-into-men side is full while the other side has a seat', () => {
    const supper = DEMO_MIXERS.find((m) => m.key === 'supper-club-singles') as DemoMixer;
    const sides = demoSides(supper, demoAudience(supper));
    expect(sides.filter((s) => s === 'women-into-men')).toHaveLength(2);
    expect(sides.filter((s) => s === 'men-into-women')).toHaveLength(1);
    expect(fittingPools(demoAudience(supper).seatPlan, facts('maya-okafor'))).toContain('women-into-men');
  });
});
