import { describe, expect, it } from 'vitest';
import { type HostProgress, type HostWindow, nextHostAction, nudgeDue, promptSlots, wrapupAt } from './schedule';

const MIN = 60_000;
const START = Date.parse('2026-11-28T19:00:00Z');
const hour: HostWindow = { startsAt: START, endsAt: START + 60 * MIN };
const fresh: HostProgress = { promptsPosted: 0, slotsDone: 0, lastHostAt: null, gamePosted: false, wrapupPosted: false };
const at = (minutes: number) => START + minutes * MIN;

/**
 * Runs the host minute by minute (the injectable clock), with members chatting at `chatAt`
 * minutes, applying each action as the job would; returns what was posted and when.
 */
function simulate(w: HostWindow, chatAt: (minute: number) => boolean, step = 0.5) {
  const p: HostProgress = { ...fresh };
  let lastLine: number | null = w.startsAt; // the icebreaker
  const posted: { minute: number; what: string }[] = [];
  for (let now = w.startsAt; now < w.endsAt; now += step * MIN) {
    const minute = (now - w.startsAt) / MIN;
    if (chatAt(minute)) lastLine = now;
    for (let a = nextHostAction(w, p, lastLine, now); a; a = nextHostAction(w, p, lastLine, now)) {
      if (a.type === 'skip-slot') {
        p.slotsDone = a.slotsDone;
        continue;
      }
      if (a.type === 'prompt') {
        p.promptsPosted += 1;
        p.slotsDone = a.slotsDone;
        posted.push({ minute, what: `prompt:${a.reason}` });
      } else if (a.type === 'game') {
        p.gamePosted = true;
        posted.push({ minute, what: 'game' });
      } else {
        p.wrapupPosted = true;
        posted.push({ minute, what: 'wrapup' });
      }
      p.lastHostAt = now;
      lastLine = now;
    }
  }
  return posted;
}

describe('host schedule', () => {
  it('in a busy hour: prompts at :15 and :45, the game at :30, the wrap-up at :50 and nothing else', () => {
    const chatty = (m: number) => m % 1 === 0; // a line every minute: never quiet
    expect(simulate(hour, chatty)).toEqual([
      { minute: 15, what: 'prompt:scheduled' },
      { minute: 30, what: 'game' },
      { minute: 45, what: 'prompt:scheduled' },
      { minute: 50, what: 'wrapup' },
    ]);
  });

  it('scales the cadence to the mixer: a two-hour mixer gets a prompt every 30 minutes, the game at 1 h', () => {
    const two: HostWindow = { startsAt: START, endsAt: START + 120 * MIN };
    expect(promptSlots(two).map((t) => (t - START) / MIN)).toEqual([30, 90]);
    const posted = simulate(two, (m) => m % 1 === 0);
    expect(posted.map((p) => `${p.minute}:${p.what}`)).toEqual(['30:prompt:scheduled', '60:game', '90:prompt:scheduled', '110:wrapup']);
  });

  it('a 30-minute mixer: prompts every 7.5 minutes, the wrap-up at a sixth before the end', () => {
    const half: HostWindow = { startsAt: START, endsAt: START + 30 * MIN };
    expect(promptSlots(half).map((t) => (t - START) / MIN)).toEqual([7.5, 22.5]);
    expect((wrapupAt(half) - START) / MIN).toBe(25);
  });

  it('posts a prompt when the room has been quiet for 5 minutes, and not more often than every 5 minutes', () => {
    const silent = () => false;
    const posted = simulate(hour, silent);
    const quiet = posted.filter((p) => p.what === 'prompt:quiet').map((p) => p.minute);
    expect(quiet[0]).toBe(5);
    const all = posted.map((p) => p.minute);
    for (let i = 1; i < all.length; i++) {
      if (posted[i].what === 'wrapup' || posted[i].what === 'game') continue;
      expect(all[i] - all[i - 1]).toBeGreaterThanOrEqual(5);
    }
    // A quiet prompt just before a scheduled slot takes its place: no second prompt within 5 minutes.
    expect(posted.filter((p) => p.minute > 10 && p.minute < 20).map((p) => p.minute)).toEqual([15]);
  });

  it('does not count the room as quiet while members are talking', () => {
    const now = at(12);
    expect(nextHostAction(hour, { ...fresh, slotsDone: 0 }, at(10), now)).toBeNull();
    expect(nextHostAction(hour, fresh, at(7), now)).toEqual({ type: 'prompt', reason: 'quiet', slotsDone: 0 });
    // The host's own line 3 minutes ago keeps it from speaking again, however quiet the room.
    expect(nextHostAction(hour, { ...fresh, lastHostAt: at(9) }, at(2), now)).toBeNull();
  });

  it('the game comes once, at halfway', () => {
    expect(nextHostAction(hour, { ...fresh, slotsDone: 1 }, at(29.9), at(29.9))).toBeNull();
    expect(nextHostAction(hour, { ...fresh, slotsDone: 1 }, at(29.9), at(30))).toEqual({ type: 'game' });
    expect(nextHostAction(hour, { ...fresh, slotsDone: 1, gamePosted: true, lastHostAt: at(30) }, at(31), at(32))).toBeNull();
  });

  it('wraps up ten minutes before the end, once, and stays silent after it and outside the window', () => {
    const done = { ...fresh, slotsDone: 2, gamePosted: true };
    expect(nextHostAction(hour, done, at(49), at(49.9))).toBeNull();
    expect(nextHostAction(hour, done, at(49), at(50))).toEqual({ type: 'wrapup' });
    expect(nextHostAction(hour, { ...done, wrapupPosted: true }, at(50), at(58))).toBeNull();
    expect(nextHostAction(hour, fresh, null, at(-1))).toBeNull();
    expect(nextHostAction(hour, fresh, null, at(60))).toBeNull();
  });

  it('a late run catches up with one prompt, not one per missed slot', () => {
    const late = nextHostAction(hour, { ...fresh, gamePosted: true, lastHostAt: at(30) }, at(30), at(46));
    expect(late).toEqual({ type: 'prompt', reason: 'scheduled', slotsDone: 2 });
  });
});

describe('nudge', () => {
  const member = { joinedAt: at(-30), hasWritten: false, nudged: false };
  it('comes after 10 minutes in the room without a line', () => {
    expect(nudgeDue(hour, member, at(9.9))).toBe(false);
    expect(nudgeDue(hour, member, at(10))).toBe(true);
  });
  it('counts from when a late member joined', () => {
    expect(nudgeDue(hour, { ...member, joinedAt: at(20) }, at(29))).toBe(false);
    expect(nudgeDue(hour, { ...member, joinedAt: at(20) }, at(30))).toBe(true);
  });
  it('comes once, never to someone who has written, and not during the wrap-up', () => {
    expect(nudgeDue(hour, { ...member, nudged: true }, at(20))).toBe(false);
    expect(nudgeDue(hour, { ...member, hasWritten: true }, at(20))).toBe(false);
    expect(nudgeDue(hour, member, at(51))).toBe(false);
  });
});
