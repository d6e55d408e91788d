import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { ERROR_STATUS, type ErrorCode } from '../../shared/errors';
import type { ChatMessage, ClientMessage, CounterKey, ServerEvent } from '../../shared/realtime/events';
import { ApiError, NETWORK_ERROR } from './api';

/**
 * The events' parser, with their schemas and zod, loads with the first connection instead of with
 * every page (issue 33): the socket opens after the app has taken the page over anyway.
 */
let parseServerEvent: ((raw: string) => ServerEvent | null) | undefined;
let parserLoading: Promise<unknown> | undefined;
/** Yields to the browser: each step below is a task of its own on a slow phone. */
const nextTask = () =>
  (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler?.yield?.() ?? new Promise<void>((r) => setTimeout(r));
export const loadParser = () => {
  // zod, then the events' module, then their schemas (made by a first parse), one task each: on
  // a slow phone the three at once were one long task (Lighthouse's blocking time).
  parserLoading ??= (async () => {
    await import('./zod-first');
    await nextTask();
    const events = await import('../../shared/realtime/events');
    await nextTask();
    events.parseServerEvent('{}');
    await nextTask();
    parseServerEvent = events.parseServerEvent;
  })().catch((err: unknown) => {
    parserLoading = undefined; // Try again with the next connection.
    throw err;
  });
  return parserLoading;
};

type Handler = (event: ServerEvent) => void;
/** A view's catch-up after a reconnect (a refetch); its promise says when it has the server's state. */
type ReconnectHandler = () => unknown;

const PING_MS = 20_000;
const MAX_BACKOFF_MS = 15_000;
/** A chat line sent over the socket with no answer by then is reported as not sent. */
const SEND_TIMEOUT_MS = 10_000;

interface PendingSend {
  resolve: (message: ChatMessage) => void;
  reject: (err: ApiError) => void;
  timer: ReturnType<typeof setTimeout>;
}
/** Catching up never waits longer than this for subscriptions to be confirmed. */
const RESUBSCRIBE_WAIT_MS = 5000;
/** …nor holds live events longer than this for a refetch that hangs. */
const REFETCH_WAIT_MS = 10_000;
/** Events that describe the connection itself, never held back while catching up. */
const CONTROL = new Set<ServerEvent['type']>(['ready', 'subscribed', 'error', 'pong']);

/**
 * One socket per tab: heartbeats, reconnect with backoff, room subscriptions replayed after a
 * reconnect, and `onReconnect` listeners so views refetch what they may have missed (after a
 * reconnect, and after the first connection of a page whose views were already in rooms).
 *
 * Nothing is lost across a reconnect (an instance restarting or dying, docs/decisions/020): the
 * views refetch only once every replayed room is subscribed again, so whatever is posted after
 * their snapshot arrives as an event; and events that arrive while they refetch are held and
 * delivered after the refetch has landed, so a snapshot taken before them cannot overwrite
 * them. Views add events by id, so one that is in both the snapshot and the events shows once.
 */
export class RealtimeClient {
  private socket?: WebSocket;
  private handlers = new Set<Handler>();
  private reconnectHandlers = new Set<ReconnectHandler>();
  /** While catching up after a reconnect: the events held back until the views have refetched. */
  private held?: ServerEvent[];
  private catchUp = 0;
  private rooms = new Map<string, number>();
  private attempts = 0;
  private stopped = false;
  private ping?: ReturnType<typeof setInterval>;
  private retry?: ReturnType<typeof setTimeout>;
  private everConnected = false;
  private refusals = 0;
  private pending = new Map<string, PendingSend>();
  private sends = 0;
  status: 'connecting' | 'open' | 'closed' = 'connecting';
  onStatus?: (s: RealtimeClient['status']) => void;

  constructor(private url: string) {}

  start() {
    this.stopped = false;
    if (typeof window !== 'undefined') window.addEventListener('online', this.onOnline);
    this.connect();
  }

  /** The network came back (offline page, a tunnel): reconnect now instead of after the backoff. */
  private onOnline = () => {
    if (this.stopped || this.status !== 'closed') return;
    clearTimeout(this.retry);
    this.attempts = 0;
    this.connect();
  };

  stop() {
    this.stopped = true;
    if (typeof window !== 'undefined') window.removeEventListener('online', this.onOnline);
    clearInterval(this.ping);
    clearTimeout(this.retry);
    this.socket?.close(1000, 'bye');
    this.socket = undefined;
    this.failPending();
    this.setStatus('closed');
  }

  on(handler: Handler): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  onReconnect(handler: ReconnectHandler): () => void {
    this.reconnectHandlers.add(handler);
    return () => this.reconnectHandlers.delete(handler);
  }

  /** Reference-counted, so two views can share a room. */
  subscribe(room: string): () => void {
    const n = this.rooms.get(room) ?? 0;
    this.rooms.set(room, n + 1);
    if (n === 0) this.send({ type: 'subscribe', room });
    return () => {
      const left = (this.rooms.get(room) ?? 1) - 1;
      if (left > 0) return this.rooms.set(room, left);
      this.rooms.delete(room);
      this.send({ type: 'unsubscribe', room });
    };
  }

  /**
   * Sends a chat line over the open socket; resolves with the committed message, or rejects
   * with the ApiError the HTTP route would have given. Null when the socket is not open: the
   * caller posts over HTTP instead.
   */
  sendChat(
    room: string,
    body: string,
    extras: { clientKey?: string; replyToId?: string; mentions?: string[]; confirmed?: boolean } = {},
  ): Promise<ChatMessage> | null {
    if (this.status !== 'open' || this.socket?.readyState !== WebSocket.OPEN) return null;
    const ref = `s${++this.sends}`;
    return new Promise<ChatMessage>((resolve, reject) => {
      const timer = setTimeout(() => this.settle(ref, new ApiError(0, 'network', NETWORK_ERROR)), SEND_TIMEOUT_MS);
      this.pending.set(ref, { resolve, reject, timer });
      this.send({ type: 'send', room, body, ref, ...extras });
    });
  }

  /** I am typing in a room I joined (or stopped); dropped when the socket is not open (typing is never queued). */
  typing(room: string, typing: boolean) {
    this.send({ type: 'typing', room, typing });
  }

  private settle(ref: string, outcome: ChatMessage | ApiError) {
    const pending = this.pending.get(ref);
    if (!pending) return;
    this.pending.delete(ref);
    clearTimeout(pending.timer);
    if (outcome instanceof ApiError) pending.reject(outcome);
    else pending.resolve(outcome);
  }

  /** A socket that closes with lines unanswered: they may or may not have arrived, like a dropped request. */
  private failPending() {
    for (const ref of [...this.pending.keys()]) this.settle(ref, new ApiError(0, 'network', NETWORK_ERROR));
  }

  private send(message: ClientMessage) {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  private waiting?: Set<string>;
  private resubscribed?: () => void;

  private deliver(event: ServerEvent) {
    for (const h of this.handlers) h(event);
  }

  /** After a reconnect: wait for the replayed subscriptions, let the views refetch, then deliver what was held. */
  private startCatchUp(socket: WebSocket) {
    const run = ++this.catchUp;
    this.held = [];
    this.waiting = new Set(this.rooms.keys());
    const confirmed = new Promise<void>((resolve) => {
      this.resubscribed = resolve;
      if (this.waiting?.size === 0) resolve();
      setTimeout(resolve, RESUBSCRIBE_WAIT_MS);
    });
    void confirmed
      .then(() => {
        this.waiting = undefined;
        this.resubscribed = undefined;
        if (run !== this.catchUp || socket !== this.socket) return;
        const refetched = Promise.allSettled([...this.reconnectHandlers].map((h) => h()));
        return Promise.race([refetched, new Promise((resolve) => setTimeout(resolve, REFETCH_WAIT_MS))]);
      })
      .finally(() => {
        if (run !== this.catchUp) return;
        const held = this.held ?? [];
        this.held = undefined;
        for (const event of held) this.deliver(event);
      });
  }

  private setStatus(s: RealtimeClient['status']) {
    this.status = s;
    // On the page for whoever needs to know events now arrive live (the browser tests).
    if (typeof document !== 'undefined') document.documentElement.dataset.realtime = s;
    this.onStatus?.(s);
  }

  private connect() {
    this.setStatus('connecting');
    // The socket opens while the parser loads: frames that come first wait for it, in order.
    void loadParser().catch(() => {});
    const socket = new WebSocket(this.url);
    this.socket = socket;
    // A socket replaced by a newer one (stop/start, reconnect) must not deliver or reconnect.
    const current = () => socket === this.socket;
    let early: string[] | undefined;
    socket.onmessage = (msg) => {
      if (!current()) return;
      if (!parseServerEvent || early) {
        if (!early) {
          early = [];
          void loadParser().then(
            () => {
              const frames = early ?? [];
              early = undefined;
              for (const raw of frames) if (current()) onFrame(raw);
            },
            // No parser (offline): as a lost socket, which tries again later.
            () => current() && socket.close(),
          );
        }
        early.push(String(msg.data));
        return;
      }
      onFrame(String(msg.data));
    };
    const onFrame = (raw: string) => {
      const event = parseServerEvent?.(raw);
      if (!event) return;
      if (event.type === 'sent') return this.settle(event.ref, event.message);
      if (event.type === 'send-failed') {
        const code = (event.code in ERROR_STATUS ? event.code : 'internal') as ErrorCode;
        return this.settle(event.ref, new ApiError(ERROR_STATUS[code], code, event.message));
      }
      if (event.type === 'ready') {
        const reconnected = this.everConnected;
        this.everConnected = true;
        this.attempts = 0;
        this.refusals = 0;
        this.setStatus('open');
        for (const room of this.rooms.keys()) this.send({ type: 'subscribe', room });
        // The first connection catches up too when a view was already waiting for a room: its
        // lines were read before the socket was there (in the page's HTML, seconds earlier on a
        // slow phone), and a line posted in between would otherwise never show.
        if (reconnected || this.rooms.size > 0) this.startCatchUp(socket);
      }
      if (this.held && !CONTROL.has(event.type)) {
        this.held.push(event);
        return;
      }
      this.deliver(event);
      if ((event.type === 'subscribed' || event.type === 'error') && event.room) this.waiting?.delete(event.room);
      if (this.waiting?.size === 0) this.resubscribed?.();
    };
    socket.onopen = () => {
      if (!current()) return;
      clearInterval(this.ping);
      this.ping = setInterval(() => this.send({ type: 'ping' }), PING_MS);
    };
    socket.onclose = (e) => {
      if (!current()) return;
      clearInterval(this.ping);
      this.failPending();
      if (this.stopped) return;
      this.setStatus('closed');
      // 4001: the session ended. A password change ends the old session but this tab has a
      // fresh cookie, so try once more; a second refusal means signed out (or suspended).
      if (e.code === 4001 && this.refusals++ > 0) return;
      const delay = Math.min(MAX_BACKOFF_MS, 500 * 2 ** this.attempts) * (0.75 + Math.random() * 0.5);
      this.attempts++;
      this.retry = setTimeout(() => this.connect(), delay);
    };
  }
}

const RealtimeContext = createContext<RealtimeClient | null>(null);

export function useRealtime(): RealtimeClient | null {
  return useContext(RealtimeContext);
}

/** Subscribes to events (and optionally a room) for the lifetime of a component. */
export function useRealtimeEvents(handler: Handler, room?: string) {
  const client = useRealtime();
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    if (!client) return;
    const off = client.on((e) => ref.current(e));
    const leave = room ? client.subscribe(room) : undefined;
    return () => {
      off();
      leave?.();
    };
  }, [client, room]);
}

/** Keeps Home counters and nav badges live: spec §7 adjustments, never below 0, resync on reconnect. */
function useCounterSync(client: RealtimeClient) {
  const queryClient = useQueryClient();
  useEffect(() => {
    const off = client.on((event) => {
      if (event.type !== 'counter') return;
      queryClient.setQueryData<Record<CounterKey, number>>(['stats'], (prev) =>
        prev ? { ...prev, [event.key]: Math.max(0, (prev[event.key] ?? 0) + event.delta) } : prev,
      );
    });
    // Resolves once every active query has refetched (RealtimeClient holds events until then).
    const offReconnect = client.onReconnect(() => queryClient.invalidateQueries());
    return () => {
      off();
      offReconnect();
    };
  }, [client, queryClient]);
}

export function RealtimeProvider({ children }: { children: React.ReactNode }) {
  // No location when a member page is rendered on the server (decision 028); it never connects there.
  const [client] = useState(
    () =>
      new RealtimeClient(
        typeof location === 'undefined' ? '' : `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/realtime`,
      ),
  );
  useEffect(() => {
    client.start();
    return () => client.stop();
  }, [client]);
  useCounterSync(client);
  const value = useMemo(() => client, [client]);
  return <RealtimeContext.Provider value={value}>{children}</RealtimeContext.Provider>;
}
