import { DEFAULT_TZ } from '../../../shared/constants';

/**
 * "For you" (issue 13, decision 010): one pure function scores a mixer the member is eligible
 * for and says in a few words why it is there. Weights are in one place, below.
 */

export interface RankFeatures {
  /** My interests that people already in it share, or that its topic and tags name (distinct). */
  sharedInterests: number;
  /** Its topic (or a tag) is one of my interests. */
  topicMatch: boolean;
  /** Its intent is one of the things I am looking for. */
  intentMatch: boolean;
  /** In my own region (false for online mixers). */
  near: boolean;
  live: boolean;
  startsAtMs: number;
  /** Open seats on the side(s) I fit; 0 means only the waitlist. */
  seatsForMe: number;
}

export const RANK_WEIGHTS = {
  perSharedInterest: 3,
  sharedInterestsCap: 5,
  topic: 2,
  intent: 2,
  near: 2,
  /** Starting in 30 min – 2 days: the sweet spot. */
  soon: 3,
  thisWeek: 1,
  live: 1,
  seats: 1,
  waitlistOnly: -6,
} as const;

/** Too soon to join and settle in: scored like a mixer later in the week. */
export const TOO_SOON_MS = 30 * 60_000;
const SOON_MS = 2 * 24 * 3_600_000;

const dayFmt = new Intl.DateTimeFormat('en-GB', { timeZone: DEFAULT_TZ, weekday: 'long' });
const dateFmt = new Intl.DateTimeFormat('en-CA', { timeZone: DEFAULT_TZ, year: 'numeric', month: '2-digit', day: '2-digit' });
const hourFmt = new Intl.DateTimeFormat('en-GB', { timeZone: DEFAULT_TZ, hour: 'numeric', hourCycle: 'h23' });

/** The UK calendar day of an instant as a whole number (consecutive days differ by 1, DST or not). */
const ukDay = (d: Date) => Date.parse(`${dateFmt.format(d)}T00:00:00Z`) / 86_400_000;

/** "Thursday evening", "Tomorrow morning", "This afternoon" (UK time, calendar days). */
export function whenLabel(startsAtMs: number, nowMs: number): string {
  const start = new Date(startsAtMs);
  const hour = Number(hourFmt.format(start));
  const part = hour < 12 ? 'morning' : hour < 17 ? 'afternoon' : 'evening';
  const days = ukDay(start) - ukDay(new Date(nowMs));
  if (days === 0) return `This ${part}`;
  if (days === 1) return `Tomorrow ${part}`;
  return `${dayFmt.format(start)} ${part}`;
}

export function rankMixer(f: RankFeatures, nowMs: number): { score: number; reasons: string[] } {
  const w = RANK_WEIGHTS;
  let score = Math.min(f.sharedInterests, w.sharedInterestsCap) * w.perSharedInterest;
  if (f.topicMatch) score += w.topic;
  if (f.intentMatch) score += w.intent;
  if (f.near) score += w.near;
  const until = f.startsAtMs - nowMs;
  if (f.live) score += w.live;
  else if (until >= TOO_SOON_MS && until <= SOON_MS) score += w.soon;
  else score += w.thisWeek;
  score += f.seatsForMe > 0 ? w.seats : w.waitlistOnly;

  const reasons: string[] = [];
  if (f.sharedInterests > 0) reasons.push(`${f.sharedInterests} shared interest${f.sharedInterests === 1 ? '' : 's'}`);
  else if (f.intentMatch) reasons.push('what you’re looking for');
  if (f.near) reasons.push('near you');
  reasons.push(f.live ? 'live now' : whenLabel(f.startsAtMs, nowMs));
  reasons.push(f.seatsForMe > 0 ? `${f.seatsForMe} seat${f.seatsForMe === 1 ? '' : 's'} for you` : 'waitlist open');
  return { score, reasons };
}
