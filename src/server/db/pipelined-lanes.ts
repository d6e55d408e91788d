import type pg from 'pg';

/** A lane whose oldest statement has been in flight this long is avoided while another is not. */
export const LANE_SLOW_MS = 100;
/** A lane held up this long is not used at all: the ordinary pool takes the statement. */
export const LANE_STALL_MS = 2_000;

/**
 * The hot statements' way to PostgreSQL (db/prepared.ts; docs/decisions/023, amended): a few
 * connections in pipeline mode, each shared by every statement that goes its way, beside the
 * ordinary pool, which keeps everything else and every transaction.
 *
 * Why: on a loaded instance, each statement's own write to its connection's socket was the
 * largest single cost of a chat line — a system call that wakes the database's backend. Here
 * the statements issued during one turn of the event loop leave in one write on one
 * connection, and the backend answers them in order, each with its own result or error (pg
 * sends a Sync per statement, so a failing statement fails alone, as on a connection of its
 * own). Nothing resolves earlier than before: a statement's promise settles only once the
 * database has answered it, so a line is still acknowledged only after its commit.
 *
 * A statement waits behind those sent before it on the same connection. So each goes to the
 * lane with the fewest in flight among those whose oldest statement is younger than
 * LANE_SLOW_MS; when every lane is slower (the database is busy), to the one whose oldest is
 * youngest; and when even that one has waited LANE_STALL_MS (a lock wait), to the ordinary pool.
 * One slow statement holds up the others only briefly, and a transaction that waits on a hot
 * statement while holding a lock that statement's lane waits for cannot wait forever.
 */
export interface Lanes {
  query(config: pg.QueryConfig): Promise<pg.QueryResult>;
  /** Statements in flight per lane (what the tests look at). */
  inFlight(): number[];
  end(): Promise<void>;
}

interface Lane {
  client: pg.Client | null;
  ready: Promise<pg.Client> | null;
  /** When each statement in flight was sent, oldest first (answers come back in this order). */
  sent: number[];
  corked: boolean;
}

export function pipelinedLanes(Client: typeof pg.Client, config: pg.ClientConfig, pool: Pick<pg.Pool, 'query'>, count = 2): Lanes {
  const lanes: Lane[] = Array.from({ length: count }, () => ({ client: null, ready: null, sent: [], corked: false }));
  let ended = false;

  const open = (lane: Lane): Promise<pg.Client> => {
    const client = new Client({ ...config, pipeline: true } as pg.ClientConfig);
    // A broken connection fails what is in flight on it (pg rejects each); the next statement opens another.
    const drop = () => {
      if (lane.ready === ready) {
        lane.client = null;
        lane.ready = null;
      }
    };
    client.on('error', drop);
    client.on('end', drop);
    const ready = client.connect().then(
      () => {
        if (lane.ready === ready) lane.client = client;
        return client;
      },
      (err: unknown) => {
        drop();
        throw err;
      },
    );
    lane.ready = ready;
    return ready;
  };

  /** Statements issued in this turn of the event loop go out in one write. */
  const cork = (lane: Lane, client: pg.Client) => {
    if (lane.corked) return;
    const { stream } = (client as unknown as { connection: { stream: { cork(): void; uncork(): void } } }).connection;
    stream.cork();
    lane.corked = true;
    setImmediate(() => {
      lane.corked = false;
      stream.uncork();
    });
  };

  const age = (lane: Lane, now: number) => (lane.sent.length ? now - lane.sent[0] : 0);
  const pick = (now: number): Lane | null => {
    let best: Lane | null = null;
    for (const lane of lanes) {
      if (age(lane, now) > LANE_SLOW_MS) continue;
      if (!best || lane.sent.length < best.sent.length) best = lane;
    }
    if (best) return best;
    for (const lane of lanes) if (!best || age(lane, now) < age(best, now)) best = lane;
    return best && age(best, now) <= LANE_STALL_MS ? best : null;
  };

  return {
    async query(statement) {
      const now = performance.now();
      const lane = ended ? null : pick(now);
      if (!lane) return pool.query(statement);
      lane.sent.push(now);
      try {
        const client = lane.client ?? (await (lane.ready ?? open(lane)));
        cork(lane, client);
        return await client.query(statement);
      } finally {
        lane.sent.shift();
      }
    },
    inFlight: () => lanes.map((lane) => lane.sent.length),
    async end() {
      ended = true;
      await Promise.all(lanes.map((lane) => lane.ready?.then((client) => client.end()).catch(() => undefined)));
    },
  };
}
