import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import { mixerMemberships, mixers } from '../../db/schema';

const TOKEN = 'metrics-token-for-tests-0123456789';
const HOUR = 3_600_000;

describe('GET /metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN: TOKEN });
  });
  afterAll(() => t.close());

  const scrape = (authorization?: string) => t.request({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

  it('answers only with the bearer token', async () => {
    expect((await scrape()).statusCode).toBe(401);
    expect((await scrape(`Bearer ${TOKEN}x`)).statusCode).toBe(401);
    expect((await scrape(TOKEN)).statusCode).toBe(401);
    const wrong = await scrape('Bearer nope');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error.message).toMatch(/METRICS_TOKEN/);
    const ok = await scrape(`Bearer ${TOKEN}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('reports latency by route pattern, sockets, chat messages, mail queue and job runs', async () => {
    const m = await t.member('Metric Member');
    const [mixer] = await t.database.db
      .insert(mixers)
      .values({ title: 'Metrics mixer', status: 'live', startsAt: new Date(Date.now() - HOUR / 2), endsAt: new Date(Date.now() + HOUR) })
      .returning({ id: mixers.id });
    await t.database.db.insert(mixerMemberships).values({ mixerId: mixer.id, userId: m.id, state: 'joined' });
    const posted = await t.request({
      method: 'POST',
      url: `/api/mixers/${mixer.id}/messages`,
      cookie: m.cookie,
      payload: { body: 'Hello metrics' },
    });
    expect(posted.statusCode).toBe(201);
    await t.request({ method: 'GET', url: `/api/mixers/${mixer.id}`, cookie: m.cookie });

    const text = (await scrape(`Bearer ${TOKEN}`)).body;
    // The pattern, never the id itself.
    expect(text).toMatch(/fancy_http_request_duration_seconds_bucket\{[^}]*route="\/api\/mixers\/:id"[^}]*\} [1-9]/);
    expect(text).toMatch(
      /fancy_http_request_duration_seconds_count\{[^}]*method="POST",route="\/api\/mixers\/:id\/messages",status_code="201"\} 1/,
    );
    expect(text).not.toContain(mixer.id);
    expect(text).toMatch(/^fancy_realtime_open_sockets 0$/m);
    expect(text).toMatch(/^fancy_chat_messages_total\{kind="mixer"\} 1$/m);
    // The test member's verification mail went nowhere (no transport): pending in the outbox.
    expect(text).toMatch(/^fancy_mail_queue\{status="pending"\} \d+$/m);
    expect(text).toMatch(/^fancy_mail_queue\{status="failed"\} 0$/m);
    expect(text).toMatch(/^fancy_job_runs_total\{job="mixer lifecycle",outcome="ok"\} [1-9]/m);
    expect(text).toContain('fancy_realtime_notify_lag_seconds');
    expect(text).toContain('fancy_process_resident_memory_bytes');
    if (t.database.kind === 'postgres') expect(text).toMatch(/^fancy_db_pool_connections\{state="max"\} 10$/m);
  });
});

describe('metrics are off without METRICS_TOKEN', () => {
  it('has no /metrics route', async () => {
    const t = await createTestApp();
    try {
      expect((await t.request({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});

describe('GET /api/ready (readiness) next to /api/health (liveness)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN: TOKEN });
  });
  afterAll(() => t.close());
  const operator = { authorization: `Bearer ${TOKEN}` };

  it('is ready when the database answers, and names each check to the operator', async () => {
    const res = await t.request({ method: 'GET', url: '/api/ready', headers: operator });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready', checks: { database: 'ok' }, warnings: [] });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('is not ready while a configured dependency (e.g. the bucket) is down', async () => {
    let up = false;
    t.app.readiness.add(
      'bucket',
      async () => {
        if (!up) throw new Error('bucket unreachable');
      },
      0,
    );
    const down = await t.request({ method: 'GET', url: '/api/ready', headers: operator });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({ status: 'not_ready', checks: { database: 'ok', bucket: 'down' } });
    // Anyone else learns that it is not ready, not what is down.
    const anonymous = await t.request({ method: 'GET', url: '/api/ready' });
    expect(anonymous.statusCode).toBe(503);
    expect(anonymous.json()).toEqual({ status: 'not_ready' });
    up = true;
    expect((await t.request({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
  });

  it('says draining once the instance is stopping, while liveness stays up', async () => {
    t.app.readiness.startDraining();
    const res = await t.request({ method: 'GET', url: '/api/ready' });
    expect(res.statusCode).toBe(503);
    expect(res.json().status).toBe('draining');
    expect((await t.request({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });
});

describe('production with MAIL_OUTBOX_ONLY', () => {
  it('warns admins and the metrics token in readiness and liveness, and on the admin overview, that no mail is sent; anyone else gets the status only (issue 32)', async () => {
    const t = await createTestApp({
      NODE_ENV: 'production',
      MAIL_OUTBOX_ONLY: 'true',
      AUTH_SECRET: 'x'.repeat(40),
      METRICS_TOKEN: TOKEN,
    });
    try {
      const admin = await t.member('Ada Admin', { admin: true });
      const member = await t.member('Max Member');
      const warning = [{ code: 'mail_outbox_only', message: expect.stringMatching(/SMTP_URL/) }];
      for (const ready of [
        await t.request({ method: 'GET', url: '/api/ready', cookie: admin.cookie }),
        await t.request({ method: 'GET', url: '/api/ready', headers: { authorization: `Bearer ${TOKEN}` } }),
      ]) {
        expect(ready.statusCode).toBe(200);
        expect(ready.json()).toEqual({ status: 'ready', checks: { database: 'ok' }, warnings: warning });
      }
      for (const ready of [
        await t.request({ method: 'GET', url: '/api/ready' }),
        await t.request({ method: 'GET', url: '/api/ready', cookie: member.cookie }),
        await t.request({ method: 'GET', url: '/api/ready', headers: { authorization: `Bearer ${TOKEN}x` } }),
      ]) {
        expect(ready.statusCode).toBe(200);
        expect(ready.json()).toEqual({ status: 'ready' });
        expect(ready.body).not.toContain('SMTP');
      }
      // Liveness too: anyone gets the status only; how mail leaves is for admins and the token.
      for (const health of [
        await t.request({ method: 'GET', url: '/api/health' }),
        await t.request({ method: 'GET', url: '/api/health', cookie: member.cookie }),
        await t.request({ method: 'GET', url: '/api/health', headers: { authorization: `Bearer ${TOKEN}x` } }),
      ]) {
        expect(health.statusCode).toBe(200);
        expect(health.json()).toEqual({ status: 'ok', db: 'ok' });
        expect(health.body).not.toContain('outbox');
      }
      for (const health of [
        await t.request({ method: 'GET', url: '/api/health', cookie: admin.cookie }),
        await t.request({ method: 'GET', url: '/api/health', headers: { authorization: `Bearer ${TOKEN}` } }),
      ]) {
        expect(health.json()).toEqual({ status: 'ok', db: 'ok', mail: 'outbox-only' });
      }
      const overview = await t.request({ method: 'GET', url: '/api/admin/overview', cookie: admin.cookie });
      expect(overview.statusCode).toBe(200);
      expect(overview.json().warnings).toEqual([
        { code: 'mail_outbox_only', title: 'Mail is not being sent', text: expect.stringMatching(/stay in the outbox/) },
      ]);
    } finally {
      await t.close();
    }
  });

  it('shows no warning when mail is delivered', async () => {
    const t = await createTestApp();
    try {
      const admin = await t.member('Ada Admin', { admin: true });
      const overview = await t.request({ method: 'GET', url: '/api/admin/overview', cookie: admin.cookie });
      expect(overview.json().warnings).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
