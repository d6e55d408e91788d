import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pino, { type Logger } from 'pino';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { buildApp } from '../../src/server/app';
import type { AppDeps } from '../../src/server/deps';
import { loadConfig } from '../../src/server/config';
import { jobsSettled } from '../../src/server/infra/jobs/periodic';
import type { Database } from '../../src/server/db/client';
import { mailOutbox, user } from '../../src/server/db/schema';
import { createMailer, type Transport } from '../../src/server/infra/mail/mailer';
import { createStorage } from '../../src/server/infra/storage/create';
import { createUrlSigner } from '../../src/server/infra/storage/storage';
import { freshDatabase } from './test-db';

export const TEST_ORIGIN = 'http://localhost:3000';
export const TEST_PASSWORD = 'velvet-otter-lantern';

export interface TestApp {
  app: FastifyInstance;
  deps: AppDeps;
  database: Database;
  /** Mails in the outbox for an address, newest first. */
  mailsTo(address: string): Promise<{ subject: string; text: string; html: string }[]>;
  /** The first URL in the newest mail to an address. */
  lastLinkTo(address: string): Promise<string>;
  /** Registers and logs in (confirming the address unless `verified: false`); returns the session cookie header. */
  member(name?: string, opts?: { verified?: boolean; admin?: boolean }): Promise<{ id: string; email: string; cookie: string }>;
  request(opts: InjectOptions & { cookie?: string }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

let counter = 0;

/** The whole app in-process on a fresh database (DESIGN §3: buildApp without listening). */
export async function createTestApp(
  env: Record<string, string> = {},
  opts: {
    transport?: Transport;
    /** The app's logger; none by default. */
    logger?: Logger;
    /** DNS for outbound connections (push endpoints): a stub resolver instead of the system's. */
    resolveHost?: AppDeps['resolveHost'];
    /** Runs before the app is ready, e.g. to add a route only a test needs. */
    setup?: (app: FastifyInstance) => void;
  } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fancy-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PUBLIC_URL: TEST_ORIGIN,
    LOG_LEVEL: 'silent',
    // The suites keep both cores busy: at nice 19 a check could wait minutes for the CPU.
    VERIFY_WORKER_PRIORITY: 'normal',
    ...env,
  });
  const database = await freshDatabase();
  const mailer = createMailer({ db: database.db, from: config.mailFrom, transport: opts.transport, logger: pino({ level: 'silent' }) });
  const deps: AppDeps = {
    config,
    database,
    mailer,
    // DATA_DIR/uploads, or the bucket when the test passes S3_* variables.
    storage: await createStorage(config),
    signer: createUrlSigner(config.authSecret),
    logger: opts.logger ?? false,
    resolveHost: opts.resolveHost,
  };
  const app = await buildApp(deps);
  opts.setup?.(app);
  await app.ready();
  // The jobs' first runs (lifecycle, invitation expiry, formation) start at ready with the real
  // clock: let them finish before a test arranges data, so none of them races the test's own.
  await jobsSettled(app);

  const request: TestApp['request'] = ({ cookie, headers, ...rest }) =>
    app.inject({ ...rest, headers: { ...(cookie ? { cookie } : {}), ...headers } });

  const mailsTo: TestApp['mailsTo'] = async (address) => {
    await mailer.idle();
    return database.db
      .select({ subject: mailOutbox.subject, text: mailOutbox.text, html: mailOutbox.html })
      .from(mailOutbox)
      .where(eq(mailOutbox.to, address))
      .orderBy(desc(mailOutbox.createdAt));
  };

  const lastLinkTo: TestApp['lastLinkTo'] = async (address) => {
    const [mail] = await mailsTo(address);
    const url = mail?.text.match(/https?:\/\/\S+/)?.[0];
    if (!url) throw new Error(`no link mailed to ${address}`);
    return url;
  };

  const member: TestApp['member'] = async (name = 'Test Member', o = {}) => {
    const n = ++counter;
    const email = `member${n}.${Date.now()}@example.com`;
    // Each helper-made member comes from its own address so per-IP limits do not interfere.
    const remoteAddress = `127.0.${Math.floor(n / 250) % 250}.${(n % 250) + 1}`;
    const reg = await request({
      method: 'POST',
      url: '/api/auth/register',
      remoteAddress,
      payload: { fullName: name, email, password: TEST_PASSWORD },
    });
    if (reg.statusCode !== 200) throw new Error(`register failed: ${reg.body}`);
    // Signing in with the verification link's token confirms the address (docs/decisions/006).
    const verifyToken = o.verified === false ? undefined : (new URL(await lastLinkTo(email)).searchParams.get('token') ?? undefined);
    const login = await request({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress,
      payload: { email, password: TEST_PASSWORD, verifyToken },
    });
    if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
    if (o.admin) await database.db.update(user).set({ role: 'admin' }).where(eq(user.email, email));
    const cookie = cookieHeader(login.headers['set-cookie']);
    const [row] = await database.db.select({ id: user.id }).from(user).where(eq(user.email, email));
    return { id: row.id, email, cookie };
  };

  return {
    app,
    deps,
    database,
    mailsTo,
    lastLinkTo,
    member,
    request,
    async close() {
      await app.close();
      await mailer.close();
      await database.close();
      deps.storage.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Turns Set-Cookie headers into a Cookie request header. */
/**
 * One app for a test file, the set-up most API tests share: created before the file's tests
 * (fresh database), closed after them; with `restoreMocks`, spies are restored after each test.
 * Returns the app itself, usable from the first test on (the hooks fill it in).
 */
export function setupTestApp({ restoreMocks = false }: { restoreMocks?: boolean } = {}): TestApp {
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });
  if (restoreMocks) afterEach(() => void vi.restoreAllMocks());
  return new Proxy({} as TestApp, {
    get(_, key) {
      if (!app) throw new Error('The test app is created in beforeAll: use it inside a hook or a test.');
      const value = Reflect.get(app, key);
      return typeof value === 'function' ? value.bind(app) : value;
    },
  });
}

export function cookieHeader(setCookie: string | string[] | undefined): string {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return list
    .map((c) => c.split(';')[0])
    .filter((c) => !c.endsWith('='))
    .join('; ');
}
