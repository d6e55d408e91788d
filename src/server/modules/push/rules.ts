/**
 * The rules of a push, as pure functions (issue 20, decision 021): which devices want a
 * category, what the lock screen says (discreet unless the device chose names and previews),
 * quiet hours in the device's own time zone (across midnight too), and the 10-minute coalescing.
 */
import type { PushCategory, PushPayload } from '../../../shared/schemas/push';

/** At most one push per conversation (or other coalescing key) per member in this window. */
export const PUSH_COALESCE_MS = 10 * 60_000;
/** Longest a message preview may be on a lock screen. */
export const PREVIEW_MAX = 80;

export interface PushEvent {
  category: PushCategory;
  /** The page a tap opens, e.g. `/messages/<id>`. */
  url: string;
  /** One key per conversation/mixer: coalescing and notification tag. */
  key: string;
  /** The other member (message, match): no push across a block. */
  fromUserId?: string;
  /** Shown only with previews on. */
  name?: string;
  /** Message text or mixer title; shown only with previews on. */
  detail?: string;
}

export interface DeviceRules {
  categories: Record<string, boolean>;
  showPreviews: boolean;
  quietStart: number | null;
  quietEnd: number | null;
  timeZone: string;
}

/** A category is on unless the device turned it off. */
export const wantsCategory = (device: Pick<DeviceRules, 'categories'>, category: PushCategory) => device.categories[category] !== false;

const DISCREET: Record<PushCategory, string> = {
  message: 'You have a new message',
  match: 'You have a new match',
  invitation: 'You have a new invitation',
  mixerSoon: 'A mixer you joined starts soon',
  mention: 'You were mentioned in a mixer',
};

const clip = (s: string, max: number) => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/**
 * The notification: discreet by default ("Fancy: you have a new message", nobody's name or
 * words); with previews on, the name and a short preview.
 */
export function pushText(event: PushEvent, showPreviews: boolean): PushPayload {
  const discreet: PushPayload = { title: 'Fancy', body: DISCREET[event.category], url: event.url, tag: event.key };
  if (!showPreviews) return discreet;
  const name = event.name ? clip(event.name, 40) : '';
  const detail = event.detail ? clip(event.detail, PREVIEW_MAX) : '';
  switch (event.category) {
    case 'message':
      return name ? { ...discreet, title: name, body: detail || 'Sent you a message' } : discreet;
    case 'match':
      return name ? { ...discreet, title: "It's a match!", body: `You and ${name} fancy each other.` } : discreet;
    case 'invitation':
      return detail ? { ...discreet, title: "You're invited", body: `A seat is held for you in "${detail}".` } : discreet;
    case 'mixerSoon':
      return detail ? { ...discreet, title: 'Starting in 15 minutes', body: `"${detail}" starts soon.` } : discreet;
    case 'mention':
      return name ? { ...discreet, title: `${name} mentioned you`, body: detail || 'In a mixer you joined' } : discreet;
  }
}

/** Minutes after local midnight of `at` in `timeZone`. */
export function localMinutes(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(at);
  const hour = Number(parts.find((p) => p.type === 'hour')?.value ?? 0);
  const minute = Number(parts.find((p) => p.type === 'minute')?.value ?? 0);
  return hour * 60 + minute;
}

/**
 * Whether `at` falls in the quiet hours [start, end) in the device's time zone. A window whose
 * start is after its end runs across midnight (22:00–07:00); equal or missing ends mean none.
 */
export function inQuietHours(at: Date, rules: Pick<DeviceRules, 'quietStart' | 'quietEnd' | 'timeZone'>): boolean {
  const { quietStart: start, quietEnd: end } = rules;
  if (start == null || end == null || start === end) return false;
  const m = localMinutes(at, rules.timeZone);
  return start < end ? m >= start && m < end : m >= start || m < end;
}

/** Whether a push for the same key went out too recently (at most one per 10 minutes). */
export const coalesced = (lastSentAt: Date | null | undefined, now: Date) =>
  lastSentAt != null && now.getTime() - lastSentAt.getTime() < PUSH_COALESCE_MS;

/** The devices that should get this event now, each with its text. */
export function devicesToNotify<D extends DeviceRules>(devices: D[], event: PushEvent, now: Date): { device: D; payload: PushPayload }[] {
  return devices
    .filter((d) => wantsCategory(d, event.category) && !inQuietHours(now, d))
    .map((device) => ({ device, payload: pushText(event, device.showPreviews) }));
}
