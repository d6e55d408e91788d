import type { WebSocket } from 'ws';

/** Client→server frames per socket: a burst of this many, refilled at `perSecond` (docs/decisions/008). */
export const FRAME_LIMIT = { burst: 30, perSecond: 3 } as const;
/** New sockets per member per instance: a burst of this many, refilled at `perSecond`. */
export const CONNECTION_LIMIT = { burst: 20, perSecond: 0.5 } as const;
/** Policy violation (RFC 6455 §7.4.1): the socket sent more frames (or reconnected more often) than the limits allow. */
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

/** Token buckets per member for new sockets; idle members are forgotten. */
export class ConnectionLimit {
  private buckets = new Map<string, FrameLimit>();

  take(userId: string): boolean {
    let bucket = this.buckets.get(userId);
    if (!bucket) {
      if (this.buckets.size >= 100_000) this.buckets.clear();
      bucket = new FrameLimit(CONNECTION_LIMIT);
      this.buckets.set(userId, bucket);
    }
    return bucket.take();
  }
}

/**
 * Closes an abusive socket with 1008 and stops reading from it at once: a normal close would
 * keep parsing whatever the client still sends until it answers the close (up to 30 s).
 */
export function dropAbusive(socket: WebSocket, reason: string) {
  if (socket.readyState !== socket.OPEN) return;
  socket.close(CLOSE_TOO_MANY_FRAMES, reason);
  socket.pause();
  setTimeout(() => socket.terminate(), 1000).unref();
}
