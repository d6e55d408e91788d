import type { SafetyFlag } from '../../../shared/safety/flags';
import type { ReplyQuote } from '../../../shared/realtime/line-extras';
import type { LinePrivacy } from '../../../shared/schemas/line-privacy';

/**
 * Why a line of someone else's shows collapsed for me (issues 29, 30): a line I hid, or from a
 * member I muted ("Hidden by you — show"); unsent ("Maya unsent a message"); sent after "Are
 * you sure?" ("Does this bother you?"); holding one of my hidden words; held while moderators
 * check ("Hidden while we check"). One rule for what the chat shows and what the screen reader
 * reads out, so a line the screen hides is never read out.
 */
export type CollapsedReason = 'hidden' | 'muted' | 'unsent' | 'removed' | 'abuse' | 'words';

export interface CollapsibleLine {
  id: string;
  body: string;
  /** The private chat names the sender by id; the mixer chat carries the sender (null for the host). */
  senderId?: string | null;
  sender?: { id: string } | null;
  flag?: SafetyFlag | null;
  unsentAt?: string | null;
  /** Reported by two members of the room: hidden while we check (mixer chat). */
  hidden?: boolean;
}

/** Nothing hidden or muted: for a line shown anyway after its "show". */
export const NO_PRIVACY: LinePrivacy = { hiddenLineIds: [], mutedMemberIds: [] };

/** Why the line is collapsed for me, if it is. My own lines and the host's never are. */
export function collapsedReason(
  line: CollapsibleLine,
  me: string | undefined,
  privacy: LinePrivacy,
  hides: (body: string) => boolean,
): CollapsedReason | null {
  const sender = line.senderId ?? line.sender?.id;
  if (!sender || sender === me) return null;
  if (privacy.hiddenLineIds.includes(line.id)) return 'hidden';
  if (privacy.mutedMemberIds.includes(sender)) return 'muted';
  if (line.unsentAt) return 'unsent';
  if (line.flag === 'abuse') return 'abuse';
  if (hides(line.body)) return 'words';
  if (line.hidden) return 'removed';
  return null;
}

/** What the live region reads out for a new line from someone else: its words only when the screen shows them. */
export function announcementOf(
  line: CollapsibleLine,
  name: string,
  me: string | undefined,
  privacy: LinePrivacy,
  hides: (body: string) => boolean,
): string {
  return collapsedReason(line, me, privacy, hides) ? `${name} sent a message` : `${name}: ${line.body}`;
}

/** Whether a reply's quote shows folded for me: wherever the line it quotes would (its text never shows then). */
export function quoteFolded(
  quote: ReplyQuote | null | undefined,
  me: string | undefined,
  privacy: LinePrivacy,
  hides: (body: string) => boolean,
): boolean {
  if (!quote || quote.body === null) return false;
  const line = {
    id: quote.id,
    body: quote.body,
    senderId: quote.senderId ?? null,
    flag: quote.flag === 'abuse' ? ('abuse' as const) : null,
  };
  return collapsedReason(line, me, privacy, hides) !== null;
}
