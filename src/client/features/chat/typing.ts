import { TYPING_THROTTLE_MS } from '../../../shared/realtime/live-limits';

/** What the indicator says for the people typing now (issue 29 wording); null when nobody is. */
export function typingText(names: string[]): string | null {
  if (names.length === 0) return null;
  if (names.length === 1) return `${names[0]} is typing…`;
  if (names.length === 2) return `${names[0]} and ${names[1]} are typing…`;
  return 'Several people are typing…';
}

/**
 * Keystrokes to `typing` events: the first key sends one at once, then at most one per
 * TYPING_THROTTLE_MS while keys keep coming; `stop` (sent, cleared) sends `false` only when a
 * `true` went out since the last stop.
 */
export class TypingThrottle {
  private lastSent = Number.NEGATIVE_INFINITY;
  private active = false;

  constructor(
    private send: (typing: boolean) => void,
    private now: () => number = Date.now,
    private every = TYPING_THROTTLE_MS,
  ) {}

  keystroke() {
    const t = this.now();
    if (t - this.lastSent < this.every) return;
    this.lastSent = t;
    this.active = true;
    this.send(true);
  }

  stop() {
    if (!this.active) return;
    this.active = false;
    this.lastSent = Number.NEGATIVE_INFINITY;
    this.send(false);
  }
}
