/**
 * Push endpoints in production mode (issue 32): registration takes only the push services
 * browsers use, and every send checks the stored endpoint again, by name and by the addresses a
 * stub resolver gives for it, before any connection is made.
 */
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type PushServiceStandIn, startPushService } from '../../../../tests/helpers/push-service';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import { PUSH_MESSAGES } from '../../../shared/schemas/push';
import { generateVapidKeys } from '../../config';
import type { HostResolver } from '../../lib/public-address';
import { notify, pushIdle } from './service';

/** What the stub DNS answers; a test changes it to point a name inside. */
const dns = new Map<string, string[]>();
const resolveHost = vi.fn<HostResolver>(async (host) =>
  (dns.get(host) ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
);

/** The app's log lines (warnings and up), to tell "refused before connecting" from "could not connect". */
const logLines: { msg: string; device?: string }[] = [];
const logger = pino({ level: 'warn' }, { write: (line: string) => void logLines.push(JSON.parse(line)) });

let t: TestApp;
let push: PushServiceStandIn;
beforeAll(async () => {
  const vapid = generateVapidKeys();
  t = await createTestApp(
    {
      NODE_ENV: 'production',
      MAIL_OUTBOX_ONLY: 'true',
      AUTH_SECRET: 'x'.repeat(40),
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      PUSH_SERVICE_HOSTS: '*.nip.io',
    },
    { resolveHost, logger },
  );
  push = await startPushService();
});
afterAll(async () => {
  await t?.close();
  await push?.close();
});

const register = (cookie: string, endpoint: string, keys = push.subscription().keys) =>
  t.request({ method: 'POST', url: '/api/push/devices', cookie, payload: { endpoint, keys } });
const rows = async (userId: string) =>
  (
    (await t.database.db.execute(
      sql`select endpoint, last_sent_at from push_subscriptions where user_id = ${userId} order by endpoint`,
    )) as unknown as { rows: { endpoint: string; last_sent_at: string | null }[] }
  ).rows;
let keyCount = 0;
const ping = async (userId: string) => {
  notify(t.app, userId, { category: 'invitation', url: '/mixers', key: `production-test:${++keyCount}` });
  await pushIdle(t.app);
};

describe('push endpoints in production', () => {
  it('registration refuses every disguise of an inside host and any port but 443', async () => {
    const m = await t.member('Prod Pusher');
    for (const endpoint of [
      'https://localhost./push/a',
      'https://foo.localhost/push/a',
      'https://localhost.localdomain/push/a',
      'https://metadata.google.internal./computeMetadata/v1/',
      'https://printer.local./push/a',
      'https://LOCALHOST/push/a',
      'https://[::1]/push/a',
      'https://[::ffff:127.0.0.1]/push/a',
      'https://169.254.169.254/latest/meta-data/',
      'https://10.0.0.8/push/a',
      'https://100.64.0.1/push/a',
      'https://[fc00::1]/push/a',
      'https://[fe80::1]/push/a',
      'https://fcm.googleapis.com:6379/fcm/send/a',
      'http://fcm.googleapis.com/fcm/send/a',
      push.subscription().endpoint, // the loopback stand-in is for tests, never production
    ]) {
      const res = await register(m.cookie, endpoint);
      expect(res.statusCode, endpoint).toBe(400);
      expect(res.body, endpoint).toContain(PUSH_MESSAGES.badEndpoint);
    }
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/prod-a',
      'https://updates.push.services.mozilla.com/wpush/v2/prod-a',
      'https://web.push.apple.com/prod-a',
      'https://wns2-par02p.notify.windows.com/w/?token=prod-a',
    ]) {
      expect((await register(m.cookie, endpoint)).statusCode, endpoint).toBe(200);
    }
    // Registration itself connects nowhere and asks no DNS.
    expect(resolveHost).not.toHaveBeenCalled();
  });

  it('a stored endpoint that now resolves inside is not called, and is kept as if unreachable', async () => {
    const m = await t.member('Rebound Host');
    // On the operator's list (PUSH_SERVICE_HOSTS=*.nip.io), so registration takes it; its DNS points inside.
    expect((await register(m.cookie, 'https://127.0.0.1.nip.io/push/x')).statusCode).toBe(200);
    expect((await register(m.cookie, 'https://fcm.googleapis.com/fcm/send/rebound')).statusCode).toBe(200);
    dns.set('127.0.0.1.nip.io', ['127.0.0.1']);
    dns.set('fcm.googleapis.com', ['142.250.180.10', '169.254.169.254']);
    logLines.length = 0;
    await ping(m.id);
    expect(resolveHost.mock.calls.map(([host]) => host).sort()).toEqual(['127.0.0.1.nip.io', 'fcm.googleapis.com']);
    // Refused before any connection: no attempt was made (none "unreachable").
    expect(logLines.map((l) => l.msg).filter((msg) => msg.startsWith('push'))).toEqual([
      'push endpoint refused at send',
      'push endpoint refused at send',
    ]);
    // Kept, never marked as sent: the device list looks as for a push service that is down.
    expect(await rows(m.id)).toEqual([
      { endpoint: 'https://127.0.0.1.nip.io/push/x', last_sent_at: null },
      { endpoint: 'https://fcm.googleapis.com/fcm/send/rebound', last_sent_at: null },
    ]);
  });

  it('an endpoint stored before the rules (the loopback stand-in here) is not called and is removed', async () => {
    const m = await t.member('Stored Earlier');
    const sub = push.subscription();
    await t.database.db.execute(sql`insert into push_subscriptions (user_id, session_id, endpoint, p256dh, auth)
      select ${m.id}, id, ${sub.endpoint}, ${sub.keys.p256dh}, ${sub.keys.auth} from session where user_id = ${m.id}`);
    await ping(m.id);
    expect(push.received.filter((r) => sub.endpoint.endsWith(r.path))).toEqual([]);
    expect(await rows(m.id)).toEqual([]);
  });
});
