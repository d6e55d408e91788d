import type { WebSocket } from 'ws';
import type { Room, ServerEvent } from '../../shared/realtime/events';
import type { BusMessage, RealtimeBus } from './bus';

interface Client {
  socket: WebSocket;
  userId: string;
  sessionId: string;
  rooms: Set<string>;
}

/** Decides whether a member may join a room other than their own `user:` room. */
export type RoomAuthorizer = (userId: string, room: Room) => Promise<boolean>;

/**
 * Delivers bus messages to this instance's sockets. Modules never touch sockets: they call
 * `publish(room, event)` and the hub (here and on every other instance) delivers.
 */
export class RealtimeHub {
  private rooms = new Map<string, Set<Client>>();
  private clients = new Set<Client>();
  private authorizers = new Map<string, RoomAuthorizer>();

  constructor(private bus: RealtimeBus) {
    bus.onMessage((m) => this.deliver(m));
  }

  /** Modules register who may join their rooms, e.g. `mixer` → joined members only. */
  authorize(prefix: 'mixer' | 'conversation', authorizer: RoomAuthorizer) {
    this.authorizers.set(prefix, authorizer);
  }

  publish(room: string, event: ServerEvent): Promise<void> {
    return this.bus.publish({ kind: 'event', room, event });
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
    const client: Client = { socket, userId, sessionId, rooms: new Set() };
    this.clients.add(client);
    this.join(client, `user:${userId}`);
    return client;
  }

  remove(client: Client) {
    for (const room of client.rooms) this.leave(client, room);
    this.clients.delete(client);
  }

  async subscribe(client: Client, room: Room): Promise<boolean> {
    if (room === `user:${client.userId}`) return true;
    const authorizer = this.authorizers.get(room.split(':')[0]);
    if (!authorizer || !(await authorizer(client.userId, room))) return false;
    this.join(client, room);
    return true;
  }

  unsubscribe(client: Client, room: string) {
    if (room !== `user:${client.userId}`) this.leave(client, room);
  }

  get size() {
    return this.clients.size;
  }

  closeAll() {
    for (const c of this.clients) c.socket.close(1001, 'server shutting down');
  }

  private join(client: Client, room: string) {
    client.rooms.add(room);
    let set = this.rooms.get(room);
    if (!set) {
      set = new Set();
      this.rooms.set(room, set);
    }
    set.add(client);
  }

  private leave(client: Client, room: string) {
    client.rooms.delete(room);
    const set = this.rooms.get(room);
    if (!set) return;
    set.delete(client);
    if (!set.size) this.rooms.delete(room);
  }

  private deliver(message: BusMessage) {
    if (message.kind === 'event') {
      const set = this.rooms.get(message.room);
      if (!set) return;
      const data = JSON.stringify(message.event);
      for (const c of set) if (c.socket.readyState === c.socket.OPEN) c.socket.send(data);
      return;
    }
    if (message.kind === 'sessions-changed') return;
    if (message.kind === 'leave-room') {
      for (const c of this.rooms.get(message.room) ?? []) if (c.userId === message.userId) this.leave(c, message.room);
      return;
    }
    for (const c of this.clients) {
      const match = message.kind === 'close-user' ? c.userId === message.userId : c.sessionId === message.sessionId;
      if (match) c.socket.close(4001, message.kind === 'close-user' ? message.reason : 'signed out');
    }
  }
}
