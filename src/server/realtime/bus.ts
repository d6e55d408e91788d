import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { ServerEvent } from '../../shared/realtime/events';

/** What crosses instances: an event for a room, or a control instruction for sockets. */
export type BusMessage =
  /** `except`: members in the room who must not get it (blocks either way, issue 29). */
  | { kind: 'event'; room: string; event: ServerEvent; except?: string[] }
  | { kind: 'close-user'; userId: string; reason: string }
  | { kind: 'close-session'; sessionId: string }
  /** A member's sessions changed (password, revocations): caches drop them, sockets stay. */
  | { kind: 'sessions-changed'; userId: string }
  /** A member lost access to a room (left a mixer): their sockets stop receiving it. */
  | { kind: 'leave-room'; userId: string; room: string }
  /** Presence (issue 29, ./presence): a member's first socket in a room on an instance, or their last one gone. */
  | { kind: 'presence'; instance: string; room: string; userId: string; online: boolean; except: string[] }
  /** An instance's members of one room, re-announced periodically: `[userId, except][]`. */
  | { kind: 'presence-refresh'; instance: string; room: string; entries: [string, string[]][] }
  /** An instance started: the others re-announce their members now. */
  | { kind: 'presence-hello'; instance: string }
  /** Blocks changed between members: cached "who may not see whom" is dropped everywhere. */
  | { kind: 'visibility-changed'; userIds: string[] };

export interface RealtimeBus {
  publish(message: BusMessage): Promise<void>;
  onMessage(handler: (message: BusMessage) => void): void;
  close(): Promise<void>;
  /** Metrics: ms from publish (on any instance) to delivery here; only buses that cross processes report it. */
  onDelivered?(handler: (lagMs: number) => void): void;
}

const CHANNEL = 'fancy_realtime';

/** One process (embedded PGlite): an in-memory emitter. */
export function createLocalBus(): RealtimeBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    async publish(message) {
      emitter.emit('message', message);
    },
    onMessage(handler) {
      emitter.on('message', handler);
    },
    async close() {
      emitter.removeAllListeners();
    },
  };
}

/** NOTIFY payloads must stay under 8000 bytes; a batch closes before it reaches this. */
const MAX_PAYLOAD_BYTES = 7000;

/**
 * Several app instances on one PostgreSQL: every instance LISTENs on one channel and
 * publishes with pg_notify, so a message posted on A reaches sockets on B (DESIGN §1).
 *
 * This instance's own sockets get a message at once, without the round trip through
 * PostgreSQL (each payload names its instance, which skips its own notifications). Messages
 * published together (a busy chat) go out as one batched NOTIFY per ~7 KB, in publish order,
 * over one connection, so other instances also see them in order.
 */
export async function createPostgresBus(databaseUrl: string, log: (err: unknown) => void): Promise<RealtimeBus> {
  const { default: pg } = await import('pg');
  const instance = randomUUID();
  const ownFrom = fromField(instance);
  const handlers: ((m: BusMessage) => void)[] = [];
  const deliver = (message: BusMessage) => {
    for (const h of handlers) {
      try {
        h(message);
      } catch (err) {
        log(err);
      }
    }
  };
  const lagHandlers: ((lagMs: number) => void)[] = [];
  let listener: InstanceType<typeof pg.Client> | undefined;
  let closed = false;
  const publisher = new pg.Pool({ connectionString: databaseUrl, max: 1 });

  const connect = async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    client.on('notification', (msg) => {
      // Its own batches (every one it sends comes back) are skipped unread: a busy chat's are most.
      if (!msg.payload || msg.payload.startsWith(ownFrom)) return;
      try {
        const batch = JSON.parse(msg.payload) as { from: string; sentAt?: number; messages: BusMessage[] };
        if (batch.from === instance) return;
        // sentAt: the notify lag metric (infra/metrics).
        if (typeof batch.sentAt === 'number') for (const h of lagHandlers) h(Date.now() - batch.sentAt);
        for (const message of batch.messages) deliver(message);
      } catch (err) {
        log(err);
      }
    });
    client.on('error', (err) => {
      log(err);
      if (!closed) setTimeout(() => void connect().catch(log), 1000);
    });
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    listener = client;
  };
  await connect();

  /** Serialised messages waiting for the next NOTIFY, and who waits for it. */
  let queue: string[] = [];
  let waiting: { resolve: () => void; reject: (err: unknown) => void }[] = [];
  let flushing: Promise<void> | undefined;
  const flush = async () => {
    while (queue.length) {
      const [pending, waiters] = [queue, waiting];
      [queue, waiting] = [[], []];
      try {
        for (const payload of batches(instance, pending, Date.now())) await publisher.query('select pg_notify($1, $2)', [CHANNEL, payload]);
        for (const w of waiters) w.resolve();
      } catch (err) {
        for (const w of waiters) w.reject(err);
      }
    }
    flushing = undefined;
  };

  return {
    publish(message) {
      deliver(message);
      queue.push(JSON.stringify(message));
      const sent = new Promise<void>((resolve, reject) => waiting.push({ resolve, reject }));
      flushing ??= new Promise<void>((r) => setImmediate(r)).then(flush);
      return sent;
    },
    onMessage(handler) {
      handlers.push(handler);
    },
    onDelivered(handler) {
      lagHandlers.push(handler);
    },
    async close() {
      closed = true;
      await flushing;
      await listener?.end().catch(() => {});
      await publisher.end();
    },
  };
}

/** How every payload from `from` begins. */
const fromField = (from: string) => `{"from":${JSON.stringify(from)},`;

/** `{"from":…,"sentAt":…,"messages":[…]}` payloads of at most MAX_PAYLOAD_BYTES (a single larger message goes alone). */
export function* batches(from: string, serialised: string[], sentAt: number): Generator<string> {
  const head = `${fromField(from)}"sentAt":${sentAt},"messages":[`;
  let parts: string[] = [];
  let size = head.length + 2;
  for (const m of serialised) {
    const bytes = Buffer.byteLength(m) + 1;
    if (parts.length && size + bytes > MAX_PAYLOAD_BYTES) {
      yield `${head}${parts.join(',')}]}`;
      parts = [];
      size = head.length + 2;
    }
    parts.push(m);
    size += bytes;
  }
  if (parts.length) yield `${head}${parts.join(',')}]}`;
}
