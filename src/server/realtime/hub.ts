import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import type { ChatMessage, Room, ServerEvent } from '../../shared/realtime/events';
import type { BusMessage, RealtimeBus } from './bus';
import { isChatRoom, PresenceTracker } from './presence';

const MAX_GRANTS = 100_000;
const grantKey = (userId: string, room: string) => `${userId} ${room}`;

interface Client {
  socket: WebSocket;
  userId: string;
  sessionId: string;
  rooms: Set<string>;
  /** When this socket last relayed `typing: true` per room, until its `typing: false` (a second true within TYPING_MIN_GAP_MS is dropped). */
  typedAt?: Map<string, number>;
}

/** The server relays at most one `typing: true` per socket and room this often (the client sends one per 3 s). */
export const TYPING_MIN_GAP_MS = 1000;
/**
 * "Who in this room is hidden from whom" is remembered per room this long; dropped sooner on a
 * block (`visibilityChanged`) and when someone the answer did not know arrives in the room.
 */
export const HIDDEN_TTL_MS = 60_000;

/** At most this many open sockets per member on one instance; a new one closes the oldest (docs/decisions/008). */
export const MAX_SOCKETS_PER_MEMBER = 10;
/** A granted room stays granted this long without asking the database again, unless evicted. */
export const ROOM_GRANT_TTL_MS = 60_000;
/**
 * A seat change (`mixer.updated`) reaches a room on this instance at most once per this long
 * (issue 32): the first at once, any later ones in the interval folded into one at its end
 * (the event carries no more than "refetch", so folding loses nothing). One member cycling
 * join/leave cannot make the others refetch more than about once a second per mixer; each
 * instance folds its own deliveries.
 */
export const MIXER_UPDATE_INTERVAL_MS = 1000;

/** Close codes the client may see besides 4001 (signed out) and 4003 (forbidden origin). */
export const CLOSE_TOO_MANY_SOCKETS = 4008;

/** Decides whether a member may join a room other than their own `user:` room. */
export type RoomAuthorizer = (userId: string, room: Room) => Promise<boolean>;
/** Posts a chat line a member sent over their socket; throws the AppError the HTTP route would answer. */
/** What a socket `send` carries besides its room and ref: the text and, optionally, the line's key, the line it answers, who it mentions and whether it is sent anyway. */
export interface SendInput {
  body: string;
  clientKey?: string;
  replyToId?: string;
  mentions?: string[];
  /** The sender chose "send anyway" after Are you sure? (issue 30). */
  confirmed?: boolean;
}
export type SendHandler = (userId: string, room: Room, input: SendInput) => Promise<ChatMessage>;
/** The members of a room hidden from `userId` either way (blocks, suspensions): they never see each other's typing or presence. */
export type HiddenLookup = (room: Room) => Promise<Map<string, string[]>>;
/** Whether `userId` may not write in these rooms now (a moderator's mute): their typing is not relayed. */
export type SilencedLookup = (userId: string) => Promise<boolean>;
/** "Is this member muted?" is remembered this long per member, so typing costs no query per key. */
export const SILENCED_TTL_MS = 5000;

interface Remembered<T> {
  value: Promise<T>;
  until: number;
}

/**
 * The answer for `key` while it is younger than `ttlMs`, else a fresh `load()` remembered in its
 * place (a failed one is forgotten; the map is emptied when it reaches MAX_GRANTS).
 */
function remembered<T>(cache: Map<string, Remembered<T>>, key: string, ttlMs: number, load: () => Promise<T>): Remembered<T> {
  const cached = cache.get(key);
  if (cached && cached.until > Date.now()) return cached;
  if (cache.size >= MAX_GRANTS) cache.clear();
  const fresh = { value: load(), until: Date.now() + ttlMs };
  cache.set(key, fresh);
  fresh.value.catch(() => {
    if (cache.get(key) === fresh) cache.delete(key);
  });
  return fresh;
}

/**
 * Delivers bus messages to this instance's sockets. Modules never touch sockets: they call
 * `publish(room, event)` and the hub (here and on every other instance) delivers.
 */
export class RealtimeHub {
  private rooms = new Map<string, Set<Client>>();
  private clients = new Set<Client>();
  private authorizers = new Map<string, RoomAuthorizer>();
  private senders = new Map<string, SendHandler>();
  /**
   * Granted `userId room` pairs and when they expire, so a repeated subscribe costs no database
   * round trip. Refusals are not cached (a member who just joined retries); the per-socket
   * frame limit bounds them. Evicted on every bus message that takes access away.
   */
  private grants = new Map<string, number>();
  private checking = new Map<string, Promise<boolean>>();
  /** Sequence numbers of grant evictions per member, so a check in flight cannot re-grant. */
  private evictions = 0;
  private evictedAt = new Map<string, number>();
  /**
   * Rooms with a `mixer.updated` sent in the current interval (`room mixerId` → another one is
   * due at its end). Entries last at most two intervals, so the map stays small.
   */
  private coalescing = new Map<string, { pending: boolean; timer: ReturnType<typeof setTimeout> }>();
  private hiders = new Map<string, HiddenLookup>();
  private silencers = new Map<string, SilencedLookup>();
  private silencedCache = new Map<string, Remembered<boolean>>();
  private hiddenCache = new Map<string, Remembered<Map<string, string[]>>>();
  private presence: PresenceTracker;

  constructor(
    private bus: RealtimeBus,
    log: (err: unknown) => void = () => {},
  ) {
    bus.onMessage((m) => this.deliver(m));
    this.presence = new PresenceTracker(
      randomUUID(),
      bus,
      (room, event, except) => this.send(room, event, except),
      (room, userId) => this.hiddenIn(room, userId),
      log,
    );
  }

  /** Modules say who in their rooms is hidden from whom (member → hidden members), e.g. `mixer` → blocked participants. */
  hideWith(prefix: 'mixer' | 'conversation', lookup: HiddenLookup) {
    this.hiders.set(prefix, lookup);
  }

  /** Modules say who may not write in their rooms now, e.g. `mixer` → members a moderator muted. */
  silenceWith(prefix: 'mixer' | 'conversation', lookup: SilencedLookup) {
    this.silencers.set(prefix, lookup);
  }

  private async silenced(room: string, userId: string): Promise<boolean> {
    const prefix = room.split(':')[0];
    const lookup = this.silencers.get(prefix);
    if (!lookup) return false;
    return remembered(this.silencedCache, `${prefix} ${userId}`, SILENCED_TTL_MS, () => lookup(userId)).value;
  }

  /** Blocks changed between these members: every instance asks again who is hidden from them. */
  visibilityChanged(userIds: string[]): Promise<void> {
    return this.bus.publish({ kind: 'visibility-changed', userIds });
  }

  /** Members of `room` hidden from `userId` either way: one lookup per room, not per member or key. */
  async hiddenIn(room: string, userId: string): Promise<string[]> {
    const lookup = this.hiders.get(room.split(':')[0]);
    if (!lookup) return [];
    const cached = this.hiddenCache.get(room);
    if (cached && cached.until > Date.now() && !(await cached.value).has(userId)) {
      // Someone the answer does not know (joined since): ask again.
      if (this.hiddenCache.get(room) === cached) this.hiddenCache.delete(room);
    }
    return (await remembered(this.hiddenCache, room, HIDDEN_TTL_MS, () => lookup(room)).value).get(userId) ?? [];
  }

  /**
   * `typing` from a socket (issue 29): relayed to the room it has joined, never to members
   * hidden from the typist either way, never from a member who may not write there (muted:
   * dropped quietly, their sends say why); never stored. An error text when it is not in the room.
   */
  async typing(client: Client, room: Room, typing: boolean): Promise<string | null> {
    if (!isChatRoom(room) || !client.rooms.has(room)) return 'You are not in this room.';
    if (typing && (await this.silenced(room, client.userId))) return null;
    client.typedAt ??= new Map();
    const typedAt = client.typedAt;
    const now = Date.now();
    if (typing && now - (typedAt.get(room) ?? 0) < TYPING_MIN_GAP_MS) return null;
    // "Stopped typing" is news only after a "typing" this socket relayed: others are dropped, so
    // a stream of them is never fanned out to the room.
    if (!typing && !typedAt.has(room)) return null;
    if (typing) typedAt.set(room, now);
    else typedAt.delete(room);
    // Never back to the typist's own sockets: nobody is shown their own typing.
    const except = [client.userId, ...(await this.hiddenIn(room, client.userId))];
    await this.bus.publish({ kind: 'event', room, event: { type: 'typing', room, userId: client.userId, typing }, except });
    return null;
  }

  /** Who is in `room` now, as this socket may see it: sent once it has joined. */
  async presenceFor(client: Client, room: Room): Promise<ServerEvent | null> {
    if (!isChatRoom(room)) return null;
    const hidden = await this.hiddenIn(room, client.userId);
    return { type: 'presence', room, userIds: this.presence.membersOf(room, hidden) };
  }

  /** Modules register who may join their rooms, e.g. `mixer` → joined members only. */
  authorize(prefix: 'mixer' | 'conversation', authorizer: RoomAuthorizer) {
    this.authorizers.set(prefix, authorizer);
  }

  /** Modules that accept chat lines over the socket register how they are posted, e.g. `mixer`. */
  acceptSends(prefix: 'mixer', handler: SendHandler) {
    this.senders.set(prefix, handler);
  }

  /** Who posts a line sent to this room, if anyone does. */
  senderFor(room: Room): SendHandler | undefined {
    return this.senders.get(room.split(':')[0]);
  }

  publish(room: string, event: ServerEvent, except?: string[]): Promise<void> {
    return this.bus.publish(except?.length ? { kind: 'event', room, event, except } : { kind: 'event', room, event });
  }

  /** Ends every socket of a member on every instance (suspension, deletion). */
  closeUser(userId: string, reason = 'signed out'): Promise<void> {
    return this.bus.publish({ kind: 'close-user', userId, reason });
  }

  /** Ends the sockets of one session on every instance (logout). */
  closeSession(sessionId: string): Promise<void> {
    return this.bus.publish({ kind: 'close-session', sessionId });
  }

  /** Removes a member's sockets from a room on every instance (they may no longer read it). */
  removeFromRoom(userId: string, room: string): Promise<void> {
    return this.bus.publish({ kind: 'leave-room', userId, room });
  }

  /** Drops cached sessions of a member on every instance (after revocations that keep this socket). */
  sessionsChanged(userId: string): Promise<void> {
    return this.bus.publish({ kind: 'sessions-changed', userId });
  }

  add(socket: WebSocket, userId: string, sessionId: string): Client {
    const mine = [...this.clients].filter((c) => c.userId === userId);
    // Insertion order is connection order: the oldest sockets go first.
    for (const old of mine.slice(0, Math.max(0, mine.length - MAX_SOCKETS_PER_MEMBER + 1))) {
      this.remove(old);
      old.socket.close(CLOSE_TOO_MANY_SOCKETS, 'too many connections');
    }
    const client: Client = { socket, userId, sessionId, rooms: new Set() };
    this.clients.add(client);
    this.join(client, `user:${userId}`);
    return client;
  }

  remove(client: Client) {
    for (const room of [...client.rooms]) this.leave(client, room);
    this.clients.delete(client);
  }

  async subscribe(client: Client, room: Room): Promise<boolean> {
    if (room === `user:${client.userId}` || client.rooms.has(room)) return true;
    const key = grantKey(client.userId, room);
    const grantedUntil = this.grants.get(key);
    if (grantedUntil !== undefined && grantedUntil > Date.now()) {
      if (this.clients.has(client)) this.join(client, room);
      return true;
    }
    // Concurrent subscribes to the same room share one check.
    let check = this.checking.get(key);
    if (!check) {
      check = this.check(client.userId, room).finally(() => this.checking.delete(key));
      this.checking.set(key, check);
    }
    if (!(await check)) return false;
    // The socket may have closed (or been evicted) while the check ran.
    if (this.clients.has(client)) this.join(client, room);
    return true;
  }

  private async check(userId: string, room: Room): Promise<boolean> {
    const startedAt = this.evictions;
    const authorizer = this.authorizers.get(room.split(':')[0]);
    if (!authorizer || !(await authorizer(userId, room))) return false;
    // Access taken away while the check ran: answer this once, remember nothing.
    if ((this.evictedAt.get(userId) ?? -1) >= startedAt) return true;
    if (this.grants.size >= MAX_GRANTS) this.grants.clear();
    this.grants.set(grantKey(userId, room), Date.now() + ROOM_GRANT_TTL_MS);
    return true;
  }

  unsubscribe(client: Client, room: string) {
    if (room !== `user:${client.userId}`) this.leave(client, room);
  }

  get size() {
    return this.clients.size;
  }

  /** Whether one of the member's sockets on this instance is in the room (a conversation open in a tab). */
  isInRoom(userId: string, room: string): boolean {
    for (const c of this.rooms.get(room) ?? []) if (c.userId === userId) return true;
    return false;
  }

  closeAll() {
    for (const c of this.clients) c.socket.close(1001, 'server shutting down');
    for (const slot of this.coalescing.values()) clearTimeout(slot.timer);
    this.coalescing.clear();
    this.presence.stop();
  }

  private send(room: string, event: ServerEvent, except?: string[]) {
    const set = this.rooms.get(room);
    if (!set) return;
    // Encoded once for the whole room (a string would be encoded again for every member), and
    // sent as text: ws sends a Buffer as a binary frame unless told.
    const data = Buffer.from(JSON.stringify(event));
    const skip = except?.length ? new Set(except) : undefined;
    for (const c of set) if (c.socket.readyState === c.socket.OPEN && !skip?.has(c.userId)) c.socket.send(data, { binary: false });
  }

  /** `mixer.updated`: leading edge at once, trailing edge at the end of the interval (see MIXER_UPDATE_INTERVAL_MS). */
  private sendCoalesced(room: string, event: Extract<ServerEvent, { type: 'mixer.updated' }>) {
    const key = `${room} ${event.mixerId}`;
    const slot = this.coalescing.get(key);
    if (slot) {
      slot.pending = true;
      return;
    }
    this.send(room, event);
    this.coalescing.set(key, { pending: false, timer: this.trailing(key, room, event) });
  }

  private trailing(key: string, room: string, event: ServerEvent) {
    const timer = setTimeout(() => {
      const slot = this.coalescing.get(key);
      if (!slot?.pending) {
        this.coalescing.delete(key);
        return;
      }
      slot.pending = false;
      this.send(room, event);
      slot.timer = this.trailing(key, room, event);
    }, MIXER_UPDATE_INTERVAL_MS);
    timer.unref?.();
    return timer;
  }

  private forgetGrants(userId: string) {
    const prefix = grantKey(userId, '');
    for (const key of this.grants.keys()) if (key.startsWith(prefix)) this.grants.delete(key);
    this.noteEviction(userId);
  }

  private noteEviction(userId: string) {
    if (this.evictedAt.size >= MAX_GRANTS) this.evictedAt.clear();
    this.evictedAt.set(userId, this.evictions++);
  }

  private join(client: Client, room: string) {
    if (client.rooms.has(room)) return;
    client.rooms.add(room);
    if (isChatRoom(room)) this.presence.joined(room, client.userId);
    let set = this.rooms.get(room);
    if (!set) {
      set = new Set();
      this.rooms.set(room, set);
    }
    set.add(client);
  }

  private leave(client: Client, room: string) {
    if (!client.rooms.delete(room)) return;
    if (isChatRoom(room)) this.presence.left(room, client.userId);
    client.typedAt?.delete(room);
    const set = this.rooms.get(room);
    if (!set) return;
    set.delete(client);
    if (!set.size) this.rooms.delete(room);
  }

  private deliver(message: BusMessage) {
    if (message.kind === 'event') {
      if (!this.rooms.has(message.room)) return;
      if (message.event.type === 'mixer.updated') this.sendCoalesced(message.room, message.event);
      else this.send(message.room, message.event, message.except);
      return;
    }
    if (message.kind === 'presence' || message.kind === 'presence-refresh' || message.kind === 'presence-hello') {
      return this.presence.handle(message);
    }
    if (message.kind === 'visibility-changed') {
      const who = new Set(message.userIds);
      for (const [room, entry] of [...this.hiddenCache]) {
        void entry.value.then(
          (members) => {
            if ([...who].some((u) => members.has(u)) && this.hiddenCache.get(room) === entry) this.hiddenCache.delete(room);
          },
          () => {},
        );
      }
      return;
    }
    if (message.kind === 'sessions-changed') return;
    if (message.kind === 'leave-room') {
      this.grants.delete(grantKey(message.userId, message.room));
      this.noteEviction(message.userId);
      for (const c of this.rooms.get(message.room) ?? []) if (c.userId === message.userId) this.leave(c, message.room);
      return;
    }
    if (message.kind === 'close-user') this.forgetGrants(message.userId);
    for (const c of this.clients) {
      const match = message.kind === 'close-user' ? c.userId === message.userId : c.sessionId === message.sessionId;
      if (match) c.socket.close(4001, message.kind === 'close-user' ? message.reason : 'signed out');
    }
  }
}
