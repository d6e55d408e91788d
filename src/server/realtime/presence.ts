import type { ServerEvent } from '../../shared/realtime/events';
import type { BusMessage, RealtimeBus } from './bus';

/** Each instance re-announces who is in its chat rooms this often… */
export const PRESENCE_REFRESH_MS = 10_000;
/** …and forgets another instance's members when it has not heard from it for this long (it died). */
export const PRESENCE_EXPIRY_MS = 3 * PRESENCE_REFRESH_MS;

/** Rooms whose members see each other's presence (issue 29): chat rooms, not `user:` rooms. */
export const isChatRoom = (room: string) => room.startsWith('mixer:') || room.startsWith('conversation:');

export type PresenceMessage = Extract<BusMessage, { kind: 'presence' | 'presence-refresh' | 'presence-hello' }>;

interface Seen {
  /** Members who may not see this one (blocks either way), carried with the announcement. */
  except: string[];
  until: number;
}

const key = (room: string, userId: string) => `${room} ${userId}`;

/**
 * Who is in each chat room right now, across instances (issue 29). Each instance counts its own
 * sockets per member and room, announces a member's first socket and last one on the bus, and
 * re-announces its members every PRESENCE_REFRESH_MS, so an instance that starts late learns
 * them and one that dies is forgotten within PRESENCE_EXPIRY_MS. A socket that closes (tab
 * closed) or stops answering pings (connection lost) ends its member's presence at once.
 */
export class PresenceTracker {
  private local = new Map<string, number>();
  /** Local members whose arrival went out on the bus, with who may not see them. */
  private announced = new Map<string, string[]>();
  private present = new Map<string, Map<string, Map<string, Seen>>>();
  private timer: ReturnType<typeof setInterval>;

  constructor(
    private instance: string,
    private bus: RealtimeBus,
    private sendToRoom: (room: string, event: ServerEvent, except: string[]) => void,
    private hidden: (room: string, userId: string) => Promise<string[]>,
    private log: (err: unknown) => void = () => {},
  ) {
    this.timer = setInterval(() => this.tick(), PRESENCE_REFRESH_MS);
    this.timer.unref?.();
    // After the hub is built: on a local bus the answers arrive synchronously.
    queueMicrotask(() => void this.bus.publish({ kind: 'presence-hello', instance }).catch(log));
  }

  stop() {
    clearInterval(this.timer);
  }

  /** A socket of `userId` joined `room` on this instance. */
  joined(room: string, userId: string) {
    const k = key(room, userId);
    const n = (this.local.get(k) ?? 0) + 1;
    this.local.set(k, n);
    if (n === 1) void this.announce(room, userId).catch(this.log);
  }

  /** A socket of `userId` left `room` on this instance (unsubscribed, closed, lost). */
  left(room: string, userId: string) {
    const k = key(room, userId);
    const n = (this.local.get(k) ?? 0) - 1;
    if (n > 0) return void this.local.set(k, n);
    this.local.delete(k);
    const except = this.announced.get(k);
    if (!except) return;
    this.announced.delete(k);
    void this.bus.publish({ kind: 'presence', instance: this.instance, room, userId, online: false, except }).catch(this.log);
  }

  /** The members in `room` now, without `viewerHidden` (those hidden from the viewer, either way). */
  membersOf(room: string, viewerHidden: string[]): string[] {
    const hide = new Set(viewerHidden);
    return [...(this.present.get(room)?.keys() ?? [])].filter((u) => !hide.has(u));
  }

  handle(message: PresenceMessage) {
    if (message.kind === 'presence-hello') {
      if (message.instance !== this.instance) this.refresh();
      return;
    }
    const until = message.instance === this.instance ? Number.POSITIVE_INFINITY : Date.now() + PRESENCE_EXPIRY_MS;
    if (message.kind === 'presence-refresh') {
      // Our own re-announcement is for the other instances: this one knows its members already
      // (10,000 sockets made it ten thousand no-op updates every PRESENCE_REFRESH_MS here).
      if (message.instance === this.instance) return;
      for (const [userId, except] of message.entries) this.set(message.room, userId, message.instance, { except, until });
      return;
    }
    if (message.online) this.set(message.room, message.userId, message.instance, { except: message.except, until });
    else this.unset(message.room, message.userId, message.instance);
  }

  private async announce(room: string, userId: string) {
    const except = await this.hidden(room, userId);
    const k = key(room, userId);
    // Gone again while the check ran, or announced by a second socket meanwhile.
    if (!this.local.has(k) || this.announced.has(k)) return;
    this.announced.set(k, except);
    await this.bus.publish({ kind: 'presence', instance: this.instance, room, userId, online: true, except });
  }

  private set(room: string, userId: string, instance: string, seen: Seen) {
    let users = this.present.get(room);
    if (!users) {
      users = new Map();
      this.present.set(room, users);
    }
    let instances = users.get(userId);
    const arrived = !instances;
    if (!instances) {
      instances = new Map();
      users.set(userId, instances);
    }
    instances.set(instance, seen);
    if (arrived) this.tell(room, userId, true, seen.except);
  }

  private unset(room: string, userId: string, instance: string) {
    const users = this.present.get(room);
    const instances = users?.get(userId);
    const seen = instances?.get(instance);
    if (!users || !instances || !seen) return;
    instances.delete(instance);
    if (instances.size) return;
    users.delete(userId);
    if (!users.size) this.present.delete(room);
    this.tell(room, userId, false, seen.except);
  }

  /**
   * Tells this instance's sockets in `room` that `userId` came or went, except those hidden from
   * them either way. `except` was taken when they arrived; a block made since then (both in the
   * room) is asked again here, so neither sees the other leave.
   */
  private tell(room: string, userId: string, online: boolean, except: string[]) {
    const event: ServerEvent = { type: 'presence.changed', room, userId, online };
    void this.hidden(room, userId).then(
      (now) => this.sendToRoom(room, event, now.length ? [...new Set([...except, ...now])] : except),
      (err) => {
        this.log(err);
        this.sendToRoom(room, event, except);
      },
    );
  }

  /** Re-announces this instance's members, one bus message per room (NOTIFY payloads stay small). */
  private refresh() {
    const rooms = new Map<string, [string, string[]][]>();
    for (const [k, except] of this.announced) {
      const space = k.indexOf(' ');
      const room = k.slice(0, space);
      let entries = rooms.get(room);
      if (!entries) {
        entries = [];
        rooms.set(room, entries);
      }
      entries.push([k.slice(space + 1), except]);
    }
    for (const [room, entries] of rooms) {
      void this.bus.publish({ kind: 'presence-refresh', instance: this.instance, room, entries }).catch(this.log);
    }
  }

  private tick() {
    this.refresh();
    const now = Date.now();
    for (const [room, users] of [...this.present]) {
      for (const [userId, instances] of [...users]) {
        for (const [instance, seen] of [...instances]) if (seen.until < now) this.unset(room, userId, instance);
      }
    }
  }
}
