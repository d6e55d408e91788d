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
import { describeDevice } from '../../lib/device';
import { InsideAddressError, type ResolvedAddress, systemResolver } from '../../lib/public-address';
import { checkPushEndpoint, type EndpointPolicy, postPinned, resolvePushTarget } from './endpoint';
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
  quiet_start as "quietStart", quiet_end as "quietEnd", time_zone as "timeZone", created_at, last_sent_at from push_subscriptions s`;

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

/** What endpoints are accepted under this app's configuration (decision 021, issue 32). */
function endpointPolicy(app: FastifyInstance): EndpointPolicy {
  return { production: app.deps.config.env === 'production', extraHosts: app.deps.config.pushServiceHosts };
}

/** Subscriptions whose session is still live: a device's subscription ends with its session (issue 32). */
const LIVE_SESSION = sql`exists (select 1 from session se where se.id = s.session_id and se.expires_at > now())`;

/**
 * Adds this browser's subscription for the member, tied to the session it came with (a device's
 * pushes end with that sign-in). An endpoint already stored moves only when it is the same
 * browser: the same member (another of their sessions), or another member with the same keys
 * (a shared phone where one signed out and the other signed in). Posting someone else's
 * endpoint without its keys is refused, so it cannot be taken over (issue 32).
 */
export async function subscribe(
  app: FastifyInstance,
  userId: string,
  sessionId: string,
  input: PushSubscribeInput,
  userAgent?: string,
): Promise<PushDevice> {
  if (!app.deps.config.vapid) throw new AppError('conflict', PUSH_MESSAGES.unavailable);
  checkPushEndpoint(input.endpoint, endpointPolicy(app));
  const db = app.deps.database.db;
  const [{ n }] = rowsOf<{ n: number }>(
    await db.execute(
      sql`select count(*)::int as n from push_subscriptions s where s.user_id = ${userId} and s.endpoint <> ${input.endpoint} and ${LIVE_SESSION}`,
    ),
  );
  if (n >= MAX_PUSH_DEVICES) throw new AppError('conflict', PUSH_MESSAGES.tooMany);
  const label = describeDevice(userAgent).slice(0, 100);
  // One statement, so two members racing for an endpoint cannot both win: the update's `where`
  // is the rule above, and no row back means it was refused. Only for a session still live (a
  // cached session may have just been revoked).
  const [row] = rowsOf<SubscriptionRow>(
    await db.execute(sql`insert into push_subscriptions (user_id, session_id, endpoint, p256dh, auth, label, time_zone)
      select ${userId}::text, ${sessionId}::text, ${input.endpoint}::text, ${input.keys.p256dh}::text, ${input.keys.auth}::text, ${label}::text,
        ${input.timeZone ?? 'Europe/London'}::text
      where exists (select 1 from session where id = ${sessionId} and expires_at > now())
      on conflict (endpoint) do update set
        p256dh = excluded.p256dh, auth = excluded.auth, label = excluded.label, session_id = excluded.session_id,
        time_zone = case when push_subscriptions.user_id = excluded.user_id then coalesce(${input.timeZone ?? null}, push_subscriptions.time_zone) else excluded.time_zone end,
        categories = case when push_subscriptions.user_id = excluded.user_id then push_subscriptions.categories else '{}'::jsonb end,
        show_previews = push_subscriptions.user_id = excluded.user_id and push_subscriptions.show_previews,
        quiet_start = case when push_subscriptions.user_id = excluded.user_id then push_subscriptions.quiet_start end,
        quiet_end = case when push_subscriptions.user_id = excluded.user_id then push_subscriptions.quiet_end end,
        user_id = excluded.user_id
      where push_subscriptions.user_id = excluded.user_id
         or (push_subscriptions.p256dh = excluded.p256dh and push_subscriptions.auth = excluded.auth)
      returning id, user_id, endpoint, p256dh, auth, label, categories, show_previews as "showPreviews",
        quiet_start as "quietStart", quiet_end as "quietEnd", time_zone as "timeZone", created_at, last_sent_at`),
  );
  if (!row) {
    // Nothing written: the session ended while this request ran (signed out elsewhere), or the
    // endpoint is another member's and these are not its keys.
    const [live] = rowsOf(await db.execute(sql`select 1 from session where id = ${sessionId} and expires_at > now()`));
    if (!live) throw new AppError('unauthenticated', 'Please log in to continue.');
    throw new AppError('conflict', PUSH_MESSAGES.otherAccount);
  }
  return toDevice(row, input.endpoint);
}

/**
 * better-auth replaces the session of the device that changes its password or turns two-step
 * verification on or off: the same browser, still signed in, with a new session cookie. Its
 * subscriptions are read before `swap` (the old session's deletion removes them) and put back
 * under the new session after, so that device keeps its notifications; other devices' end with
 * their sessions. A swap that fails or sets no session cookie leaves them ended.
 */
export async function keepPushAcrossSessionSwap<T extends { headers: Headers }>(
  app: FastifyInstance,
  userId: string,
  oldSessionId: string,
  swap: () => Promise<T>,
): Promise<T> {
  const db = app.deps.database.db;
  const kept = rowsOf<Record<string, unknown>>(
    await db.execute(sql`select id, endpoint, p256dh, auth, label, categories, show_previews, quiet_start, quiet_end, time_zone,
        created_at, last_sent_at from push_subscriptions where session_id = ${oldSessionId} and user_id = ${userId}`),
  );
  const result = await swap();
  if (!kept.length) return result;
  const cookie = result.headers
    .getSetCookie()
    .map((c) => /^(?:__Secure-)?better-auth\.session_token=([^;]+)/.exec(c)?.[1])
    .find(Boolean);
  const token = cookie ? decodeURIComponent(cookie).split('.')[0] : undefined;
  if (!token) return result;
  for (const r of kept) {
    await db.execute(sql`insert into push_subscriptions (id, user_id, session_id, endpoint, p256dh, auth, label, categories, show_previews,
        quiet_start, quiet_end, time_zone, created_at, last_sent_at)
      select ${r.id}::uuid, ${userId}::text, se.id, ${r.endpoint}::text, ${r.p256dh}::text, ${r.auth}::text, ${r.label}::text,
        ${JSON.stringify(r.categories)}::jsonb, ${r.show_previews}::boolean, ${r.quiet_start}::int, ${r.quiet_end}::int,
        ${r.time_zone}::text, ${iso(r.created_at as string)}::timestamptz, ${iso(r.last_sent_at as string | null)}::timestamptz
      from session se where se.token = ${token} and se.user_id = ${userId} and se.expires_at > now()
      on conflict do nothing`);
  }
  return result;
}

export async function listDevices(app: FastifyInstance, userId: string, currentEndpoint?: string): Promise<PushDevice[]> {
  const rows = rowsOf<SubscriptionRow>(
    await app.deps.database.db.execute(sql`${SELECT} where s.user_id = ${userId} and ${LIVE_SESSION} order by s.created_at desc`),
  );
  return rows.map((r) => toDevice(r, currentEndpoint));
}

export async function updateDevice(app: FastifyInstance, userId: string, id: string, input: PushSettingsInput): Promise<PushDevice> {
  const db = app.deps.database.db;
  const [current] = rowsOf<SubscriptionRow>(await db.execute(sql`${SELECT} where s.id = ${id} and s.user_id = ${userId}`));
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
    await db.execute(sql`${SELECT} where s.user_id = ${userId} and ${LIVE_SESSION}
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

/**
 * Sends one encrypted push; removes the subscription when the push service says it is gone.
 * The endpoint is checked again first (issue 32): by name under today's rules, then by the
 * addresses its host resolves to, and the request goes to the address that was checked.
 */
export async function sendPush(app: FastifyInstance, device: SubscriptionRow, payload: PushPayload): Promise<boolean> {
  const { vapid, supportEmail } = app.deps.config;
  if (!vapid) return false;
  const db = app.deps.database.db;
  const policy = endpointPolicy(app);
  let url: URL;
  try {
    url = checkPushEndpoint(device.endpoint, policy);
  } catch {
    // Stored before today's rules (or the operator took a host off PUSH_SERVICE_HOSTS): it can
    // never be sent to, and the browser could not register it again; the row goes.
    await db.execute(sql`delete from push_subscriptions where id = ${device.id}`);
    app.log.warn({ device: device.id }, 'push endpoint no longer accepted: subscription removed');
    return false;
  }
  let target: ResolvedAddress;
  try {
    target = await resolvePushTarget(url, policy, app.deps.resolveHost ?? systemResolver);
  } catch (err) {
    // Not called, but kept: DNS answers change (an outage, a provider's mistake), and the
    // member sees the same as for an unreachable service (no lastSentAt, no removal), so the
    // device list tells nobody what a host resolves to.
    app.log.warn({ err: err instanceof InsideAddressError ? err.message : err, device: device.id }, 'push endpoint refused at send');
    return false;
  }
  const details = webpush.generateRequestDetails(
    { endpoint: url.href, keys: { p256dh: device.p256dh, auth: device.auth } },
    JSON.stringify(payload),
    {
      vapidDetails: { subject: `mailto:${supportEmail}`, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
      TTL: 60 * 60,
      urgency: 'high',
    },
  );
  try {
    const status = await postPinned(url, target, {
      method: details.method,
      headers: details.headers as Record<string, string>,
      body: details.body as Buffer,
    });
    if (status === 404 || status === 410) {
      await db.execute(sql`delete from push_subscriptions where id = ${device.id}`);
      return false;
    }
    if (status < 200 || status >= 300) {
      app.log.warn({ status, device: device.id }, 'push service refused a push');
      return false;
    }
    await db.execute(sql`update push_subscriptions set last_sent_at = now() where id = ${device.id}`);
    return true;
  } catch (err) {
    app.log.warn({ err, device: device.id }, 'push service unreachable');
    return false;
  }
}

/**
 * Subscriptions whose session has expired (no sign-out ever came: the session just ran out).
 * Sending already skips them; this removes them, from the reminder job's periodic run.
 */
export async function removeEndedSubscriptions(app: FastifyInstance): Promise<number> {
  return rowsOf<{ id: string }>(
    await app.deps.database.db.execute(sql`delete from push_subscriptions s where not ${LIVE_SESSION} returning s.id`),
  ).length;
}
