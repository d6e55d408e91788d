/** Time labels for the messenger, British English, in the browser's time zone. */

const DAY_MS = 86_400_000;

function startOfDay(d: Date): number {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
}

/** Whole calendar days between two instants (0 = same day). */
export function daysBetween(earlier: Date, later: Date): number {
  return Math.round((startOfDay(later) - startOfDay(earlier)) / DAY_MS);
}

export function isSameDay(a: string, b: string): boolean {
  return daysBetween(new Date(a), new Date(b)) === 0;
}

/** "14:05" */
export function clockTime(iso: string): string {
  return new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });
}

/** Conversation list: "now", "5m", "3h", "Yesterday", "Mon", "12 Mar", "12 Mar 2025". */
export function listTime(iso: string, now = new Date()): string {
  const d = new Date(iso);
  const diffMs = now.getTime() - d.getTime();
  const days = daysBetween(d, now);
  if (diffMs < 60_000) return 'now';
  if (days === 0 && diffMs < 3_600_000) return `${Math.floor(diffMs / 60_000)}m`;
  if (days === 0) return `${Math.floor(diffMs / 3_600_000)}h`;
  if (days === 1) return 'Yesterday';
  if (days < 7) return d.toLocaleDateString('en-GB', { weekday: 'short' });
  if (d.getFullYear() === now.getFullYear()) return d.toLocaleDateString('en-GB', { day: 'numeric', month: 'short' });
  return d.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
}

/** The long form for screen readers and tooltips: "Monday 3 November 2026 at 14:05". */
export function fullTime(iso: string): string {
  const d = new Date(iso);
  return `${d.toLocaleDateString('en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' })} at ${clockTime(iso)}`;
}

/** Day separators in a thread: "Today", "Yesterday", "Monday", "Saturday 1 November", "1 November 2025". */
export function dayLabel(iso: string, now = new Date()): string {
  const d = new Date(iso);
  const days = daysBetween(d, now);
  if (days === 0) return 'Today';
  if (days === 1) return 'Yesterday';
  if (days < 7) return d.toLocaleDateString('en-GB', { weekday: 'long' });
  if (d.getFullYear() === now.getFullYear()) return d.toLocaleDateString('en-GB', { weekday: 'long', day: 'numeric', month: 'long' });
  return d.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });
}
