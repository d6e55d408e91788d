import { HOST_NUDGE_AFTER_MS, HOST_PROMPT_SHARE, HOST_QUIET_MS, HOST_WRAPUP_BEFORE_END_MS } from '../../../shared/schemas/host';

/**
 * When the host speaks (issue 29, docs/decisions/034), as pure functions of the mixer's window,
 * what the host has done so far and the time (milliseconds since the epoch, from an injectable
 * clock). The job asks `nextHostAction` for each live mixer on every tick and claims the answer.
 *
 * An hour-long mixer: the icebreaker at :00 (posted by the lifecycle when it goes live), prompts
 * at :15 and :45, the game at :30 (it is that slot's conversation starter), the wrap-up at :50,
 * the closing line at :60; plus a prompt whenever the room has been quiet for 5 minutes, never
 * within 5 minutes of the host's last line. Other lengths scale, except the 10-minute wrap-up
 * which is capped at a sixth of a short mixer.
 */

export interface HostWindow {
  startsAt: number;
  endsAt: number;
}

export interface HostProgress {
  /** Prompts posted so far (scheduled and quiet-room). */
  promptsPosted: number;
  /** Scheduled slots handled so far. */
  slotsDone: number;
  /** When the host last posted a line (null: not yet; the icebreaker counts as the start). */
  lastHostAt: number | null;
  gamePosted: boolean;
  wrapupPosted: boolean;
}

export type HostAction =
  | { type: 'prompt'; reason: 'scheduled' | 'quiet'; slotsDone: number }
  /** A scheduled slot came within 5 minutes of a host line: marked done without a second prompt. */
  | { type: 'skip-slot'; slotsDone: number }
  | { type: 'game' }
  | { type: 'wrapup' };

const duration = (w: HostWindow) => w.endsAt - w.startsAt;

/** Milliseconds between scheduled prompts: 15 minutes of an hour. */
export const promptInterval = (w: HostWindow) => duration(w) * HOST_PROMPT_SHARE;

/** When the halfway game is due. */
export const gameAt = (w: HostWindow) => w.startsAt + duration(w) / 2;

/** When the wrap-up line is due: 10 minutes before the end, or a sixth of a mixer shorter than an hour. */
export const wrapupAt = (w: HostWindow) => w.endsAt - Math.min(HOST_WRAPUP_BEFORE_END_MS, duration(w) / 6);

/** The times of the scheduled prompt slots: every interval after the start, before the wrap-up, except the game's. */
export function promptSlots(w: HostWindow): number[] {
  const step = promptInterval(w);
  if (step <= 0) return [];
  const slots: number[] = [];
  const game = gameAt(w);
  const wrap = wrapupAt(w);
  for (let at = w.startsAt + step; at < wrap; at += step) {
    if (Math.abs(at - game) < 1000) continue;
    slots.push(at);
  }
  return slots;
}

/** How many scheduled slots have come by `now`. */
export const slotsDue = (w: HostWindow, now: number) => promptSlots(w).filter((at) => at <= now).length;

/**
 * What the host should do now, or null. One action per call; the job calls again on its next
 * tick (the order says what matters most when a run comes late: the wrap-up, then the game).
 * `lastLineAt`: the newest line of any kind in the room (null: none since the start).
 */
export function nextHostAction(w: HostWindow, p: HostProgress, lastLineAt: number | null, now: number): HostAction | null {
  if (now < w.startsAt || now >= w.endsAt) return null;
  const wrap = wrapupAt(w);
  if (now >= wrap) return p.wrapupPosted ? null : { type: 'wrapup' };
  if (!p.gamePosted && now >= gameAt(w)) return { type: 'game' };

  const lastHost = p.lastHostAt ?? w.startsAt;
  const due = slotsDue(w, now);
  if (due > p.slotsDone) {
    return now - lastHost < HOST_QUIET_MS ? { type: 'skip-slot', slotsDone: due } : { type: 'prompt', reason: 'scheduled', slotsDone: due };
  }
  const quietSince = Math.max(lastLineAt ?? w.startsAt, w.startsAt, lastHost);
  if (now - quietSince >= HOST_QUIET_MS) return { type: 'prompt', reason: 'quiet', slotsDone: p.slotsDone };
  return null;
}

/**
 * Whether a member gets their one private nudge now: in the room for 10 minutes (from when they
 * joined, or the start if they joined before it), has not written, has had no nudge in this
 * mixer, and the mixer is live and not yet winding up.
 */
export function nudgeDue(w: HostWindow, member: { joinedAt: number; hasWritten: boolean; nudged: boolean }, now: number): boolean {
  if (member.hasWritten || member.nudged) return false;
  if (now < w.startsAt || now >= wrapupAt(w)) return false;
  return now - Math.max(member.joinedAt, w.startsAt) >= HOST_NUDGE_AFTER_MS;
}
