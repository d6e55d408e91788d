import { EventEmitter } from 'node:events';
import type { ServerEvent } from '../../shared/realtime/events';

/** What crosses instances: an event for a room, or a control instruction for sockets. */
export type BusMessage =
  | { kind: 'event'; room: string; event: ServerEvent }
  | { kind: 'close-user'; userId: string; reason: string }
  | { kind: 'close-session'; sessionId: string }
  /** A member's sessions changed (password, revocations): caches drop them, sockets stay. */
  | { kind: 'sessions-changed'; userId: string }
  /** A member lost access to a room (left a mixer): their sockets stop receiving it. */
  | { kind: 'leave-room'; userId: string; room: string };

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

/**
 * Several app instances on one PostgreSQL: every instance LISTENs on one channel and
 * publishes with pg_notify, so a message posted on A reaches sockets on B (DESIGN §1).
 */
export async function createPostgresBus(databaseUrl: string, log: (err: unknown) => void): Promise<RealtimeBus> {
  const { default: pg } = await import('pg');
  const handlers: ((m: BusMessage) => void)[] = [];
  const lagHandlers: ((lagMs: number) => void)[] = [];
  let listener: InstanceType<typeof pg.Client> | undefined;
  let closed = false;
  const publisher = new pg.Pool({ connectionString: databaseUrl, max: 2 });

  const connect = async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    client.on('notification', (msg) => {
      if (!msg.payload) return;
      try {
        const message = JSON.parse(msg.payload) as BusMessage & { sentAt?: number };
        if (typeof message.sentAt === 'number') for (const h of lagHandlers) h(Date.now() - message.sentAt);
        for (const h of handlers) h(message);
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

  return {
    async publish(message) {
      // sentAt: the notify lag metric (infra/metrics).
      await publisher.query('select pg_notify($1, $2)', [CHANNEL, JSON.stringify({ ...message, sentAt: Date.now() })]);
    },
    onMessage(handler) {
      handlers.push(handler);
    },
    onDelivered(handler) {
      lagHandlers.push(handler);
    },
    async close() {
      closed = true;
      await listener?.end().catch(() => {});
      await publisher.end();
    },
  };
}
