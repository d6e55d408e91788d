/**
 * Web Push (issue 20, decision 021): devices members allowed, their settings, and sending.
 * Payloads are encrypted (RFC 8291) and signed (VAPID, RFC 8292) by `web-push`; the request is
 * sent with fetch. A push service's 404/410 removes the subscription. Sending never blocks the
 * request that caused it: `notify` queues the work, `pushIdle` waits for it (tests, shutdown).
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import webpush from 'web-push';
import {
  MAX_PUSH_DEVICES,
  PUSH_CATEGORIES,
  PUSH_MESSAGES,
  type PushCategory,
  type PushDevice,
  type PushPayload,
  type PushSettingsInput,
  type PushSubscribeInput,
} from '../../../shared/schemas/push';
import { AppError } from '../../http/errors';
import { blockedBetween } from '../safety/service';
import { describeDevice } from '../settings/service';
import { type DeviceRules, devicesToNotify, PUSH_COALESCE_MS, type PushEvent } from './rules';

interface SubscriptionRow extends DeviceRules {
  id: string;
  user_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  label: string;
  created_at: Date | string;
  last_sent_at: Date | string | null;
}

const rowsOf = <T>(result: unknown): T[] => ((result as { rows?: T[] }).rows ?? []) as T[];
const iso = (v: Date | string | null) => (v == null ? null : new Date(v).toISOString());
const SELECT = sql`select id, user_id, endpoint, p256dh, auth, label, categories, show_previews as "showPreviews",
  quiet_start as "quietStart", quiet_end as "quietEnd", time_zone as "timeZone", created_at, last_sent_at from push_subscriptions`;

function toDevice(r: SubscriptionRow, currentEndpoint?: string): PushDevice {
  return {
    id: r.id,
    label: r.label,
    createdAt: iso(r.created_at) as string,
    lastSentAt: iso(r.last_sent_at),
    categories: Object.fromEntries(PUSH_CATEGORIES.map((c) => [c, r.categories?.[c] !== false])) as Record<PushCategory, boolean>,
    showPreviews: r.showPreviews,
    quietStart: r.quietStart,
    quietEnd: r.quietEnd,
    timeZone: r.timeZone,
    current: currentEndpoint !== undefined && r.endpoint === currentEndpoint,
  };
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Push services are public https hosts. An endpoint is where this server will POST, so it must
 * not point inside our network: no IP literals or localhost in production; outside production
 * a loopback http stand-in (tests) is allowed as well.
 */
export function assertPushEndpoint(endpoint: string, production: boolean): void {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new AppError('validation', PUSH_MESSAGES.badEndpoint);
  }
  const host = url.hostname.toLowerCase();
  const ipLiteral = /^[\d.]+$/.test(host) || host.startsWith('[');
  const loopback = LOOPBACK.has(host);
  if (url.username || url.password) throw new AppError('validation', PUSH_MESSAGES.badEndpoint);
  if (!production && loopback) return;
  if (url.protocol !== 'https:' || ipLiteral || loopback || !host.includes('.') || host.endsWith('.local') || host.endsWith('.internal')) {
    throw new AppError('validation', PUSH_MESSAGES.badEndpoint);
  }
}

/** Adds (or takes over) this browser's subscription for the member. */
export async function subscribe(app: FastifyInstance, userId: string, input: PushSubscribeInput, userAgent?: string): Promise<PushDevice> {
  if (!app.deps.config.vapid) throw new AppError('conflict', PUSH_MESSAGES.unavailable);
  assertPushEndpoint(input.endpoint, app.deps.config.env === 'production');
  const db = app.deps.database.db;
  const [{ n }] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from push_subscriptions where user_id = ${userId} and endpoint <> ${input.endpoint}`),
  );
  if (n >= MAX_PUSH_DEVICES) throw new AppError('conflict', PUSH_MESSAGES.tooMany);
  const label = describeDevice(userAgent).slice(0, 100);
  const [row] = rowsOf<SubscriptionRow>(
    await db.execute(sql`insert into push_subscriptions (user_id, endpoint, p256dh, auth, label, time_zone)
      values (${userId}, ${input.endpoint}, ${input.keys.p256dh}, ${input.keys.auth}, ${label}, ${input.timeZone ?? 'Europe/London'})
      on conflict (endpoint) do update set
        p256dh = excluded.p256dh, auth = excluded.auth, label = excluded.label,
        time_zone = case when push_subscriptions.user_id = excluded.user_id then coalesce(${input.timeZone ?? null}, push_subscriptions.time_zone) else excluded.time_zone end,
        categories = case when push_subscriptions.user_id = excluded.user_id then push_subscriptions.categories else '{}'::jsonb end,
        show_previews = push_subscriptions.user_id = excluded.user_id and push_subscriptions.show_previews,
        quiet_start = case when push_subscriptions.user_id = excluded.user_id then push_subscriptions.quiet_start end,
        quiet_end = case when push_subscriptions.user_id = excluded.user_id then push_subscriptions.quiet_end end,
        user_id = excluded.user_id
      returning id, user_id, endpoint, p256dh, auth, label, categories, show_previews as "showPreviews",
        quiet_start as "quietStart", quiet_end as "quietEnd", time_zone as "timeZone", created_at, last_sent_at`),
  );
  return toDevice(row, input.endpoint);
}

export async function listDevices(app: FastifyInstance, userId: string, currentEndpoint?: string): Promise<PushDevice[]> {
  const rows = rowsOf<SubscriptionRow>(
    await app.deps.database.db.execute(sql`${SELECT} where user_id = ${userId} order by created_at desc`),
  );
  return rows.map((r) => toDevice(r, currentEndpoint));
}

export async function updateDevice(app: FastifyInstance, userId: string, id: string, input: PushSettingsInput): Promise<PushDevice> {
  const db = app.deps.database.db;
  const [current] = rowsOf<SubscriptionRow>(await db.execute(sql`${SELECT} where id = ${id} and user_id = ${userId}`));
  if (!current) throw new AppError('not_found', PUSH_MESSAGES.notFound);
  const categories = { ...current.categories, ...(input.categories ?? {}) };
  const [row] = rowsOf<SubscriptionRow>(
    await db.execute(sql`update push_subscriptions set categories = ${JSON.stringify(categories)}::jsonb,
        show_previews = ${input.showPreviews ?? current.showPreviews},
        quiet_start = ${input.quietStart === undefined ? current.quietStart : input.quietStart},
        quiet_end = ${input.quietEnd === undefined ? current.quietEnd : input.quietEnd},
        time_zone = ${input.timeZone ?? current.timeZone}
      where id = ${id} and user_id = ${userId}
      returning id, user_id, endpoint, p256dh, auth, label, categories, show_previews as "showPreviews",
        quiet_start as "quietStart", quiet_end as "quietEnd", time_zone as "timeZone", created_at, last_sent_at`),
  );
  if (!row) throw new AppError('not_found', PUSH_MESSAGES.notFound);
  return toDevice(row);
}

export async function removeDevice(app: FastifyInstance, userId: string, id: string): Promise<void> {
  const rows = rowsOf<{ id: string }>(
    await app.deps.database.db.execute(sql`delete from push_subscriptions where id = ${id} and user_id = ${userId} returning id`),
  );
  if (!rows.length) throw new AppError('not_found', PUSH_MESSAGES.notFound);
}

/** The browser turned push off: forget its endpoint (only the member's own). */
export async function unsubscribeEndpoint(app: FastifyInstance, userId: string, endpoint: string): Promise<void> {
  await app.deps.database.db.execute(sql`delete from push_subscriptions where endpoint = ${endpoint} and user_id = ${userId}`);
}

const pending = new WeakMap<FastifyInstance, Set<Promise<unknown>>>();

/** Resolves when every push queued so far has been sent (or failed). */
export async function pushIdle(app: FastifyInstance): Promise<void> {
  const set = pending.get(app);
  while (set?.size) await Promise.allSettled([...set]);
}

/**
 * Queues a push to every device of `userId` that wants it. Nothing for: a member suspended,
 * or blocked either way with `event.fromUserId`; a conversation open in any of the member's
 * tabs (`openRoom`); devices that turned the category off or are in quiet hours; a key pushed
 * to this member within the last 10 minutes.
 */
export function notify(app: FastifyInstance, userId: string, event: PushEvent & { openRoom?: string }): void {
  if (!app.deps.config.vapid) return;
  if (event.openRoom && app.realtime.isInRoom(userId, event.openRoom)) return;
  let set = pending.get(app);
  if (!set) {
    set = new Set();
    pending.set(app, set);
  }
  const job = deliver(app, userId, event, new Date()).catch((err) => app.log.error({ err, userId }, 'push failed'));
  set.add(job);
  void job.finally(() => set.delete(job));
}

async function deliver(app: FastifyInstance, userId: string, event: PushEvent, now: Date): Promise<number> {
  const db = app.deps.database.db;
  const devices = rowsOf<SubscriptionRow>(
    await db.execute(sql`${SELECT} s where s.user_id = ${userId}
      and not exists (select 1 from "user" u where u.id = s.user_id and u.banned is true)
      and ${event.fromUserId ? sql`not ${blockedBetween(userId, event.fromUserId)}` : sql`true`}`),
  );
  const targets = devicesToNotify(devices, event, now);
  if (!targets.length) return 0;
  // One push per member and key per 10 minutes, across instances: the upsert claims the slot.
  const claimed = rowsOf<{ ok: number }>(
    await db.execute(sql`insert into push_coalesce (user_id, key, sent_at) values (${userId}, ${event.key}, ${now.toISOString()}::timestamptz)
      on conflict (user_id, key) do update set sent_at = excluded.sent_at
        where push_coalesce.sent_at <= ${new Date(now.getTime() - PUSH_COALESCE_MS).toISOString()}::timestamptz
      returning 1 as ok`),
  );
  if (!claimed.length) return 0;
  const results = await Promise.all(targets.map(({ device, payload }) => sendPush(app, device, payload)));
  return results.filter(Boolean).length;
}

/** Sends one encrypted push; removes the subscription when the push service says it is gone. */
export async function sendPush(app: FastifyInstance, device: SubscriptionRow, payload: PushPayload): Promise<boolean> {
  const { vapid, supportEmail } = app.deps.config;
  if (!vapid) return false;
  const details = webpush.generateRequestDetails(
    { endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
    JSON.stringify(payload),
    {
      vapidDetails: { subject: `mailto:${supportEmail}`, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
      TTL: 60 * 60,
      urgency: 'high',
    },
  );
  const headers = { ...details.headers } as Record<string, string>;
  delete headers['Content-Length'];
  const db = app.deps.database.db;
  try {
    const res = await fetch(details.endpoint, {
      method: details.method,
      headers,
      body: new Uint8Array(details.body as Buffer),
      redirect: 'error',
      signal: AbortSignal.timeout(10_000),
    });
    await res.body?.cancel();
    if (res.status === 404 || res.status === 410) {
      await db.execute(sql`delete from push_subscriptions where id = ${device.id}`);
      return false;
    }
    if (!res.ok) {
      app.log.warn({ status: res.status, device: device.id }, 'push service refused a push');
      return false;
    }
    await db.execute(sql`update push_subscriptions set last_sent_at = now() where id = ${device.id}`);
    return true;
  } catch (err) {
    app.log.warn({ err, device: device.id }, 'push service unreachable');
    return false;
  }
}
