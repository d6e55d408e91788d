/** Client→server frames per socket: a burst of this many, refilled at `perSecond` (docs/decisions/008). */
export const FRAME_LIMIT = { burst: 30, perSecond: 3 } as const;
/** Policy violation (RFC 6455 §7.4.1): the socket sent more frames than the limit allows. */
export const CLOSE_TOO_MANY_FRAMES = 1008;

/** A token bucket for one socket: `take()` is false once the socket is over its limit. */
export class FrameLimit {
  private tokens: number;
  private at = Date.now();

  constructor(private readonly limit: { burst: number; perSecond: number } = FRAME_LIMIT) {
    this.tokens = limit.burst;
  }

  take(now = Date.now()): boolean {
    this.tokens = Math.min(this.limit.burst, this.tokens + ((now - this.at) / 1000) * this.limit.perSecond);
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
