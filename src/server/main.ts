import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app';
import { promoteAdmins } from './auth/admins';
import type { Config } from './config';
import type { Database } from './db/client';
import { seedDemoData } from './db/seed/demo';
import { ensureReferenceData } from './db/seed/reference';
import { writeBackup } from './infra/backup/archive';
import { embeddedBackupSource } from './infra/backup/embedded';
import { createLogger } from './infra/log';
import { createMailer, createTransport } from './infra/mail/mailer';
import { createStorage } from './infra/storage/create';
import { createUrlSigner } from './infra/storage/storage';
import { createLocalBus, createPostgresBus } from './realtime/bus';
import { drain } from './http/drain';
import { openStore, type Store } from './open-store';

export const CLIENT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/client');

export interface Running {
  url: string;
  /** The open database, for tests that arrange data directly. */
  database: Database;
  /** The app itself, for tests that run its jobs at a chosen moment. */
  app: FastifyInstance;
  demo?: { accounts: string[]; password: string };
  close(): Promise<void>;
  /** SIGTERM: readiness says draining, sockets are told to reconnect elsewhere, then close() (decision 020). */
  drain(): Promise<void>;
}

/**
 * Opens everything, listens, and returns a handle; serve.ts adds signals around it. `initialData`:
 * what a new embedded database starts from (openDatabase's option; tests start from a migrated
 * copy). `store`: the store already being opened (serve.ts opens it while this module loads).
 */
export async function startServer(
  config: Config,
  opts: { clientDir?: string; initialData?: Uint8Array; store?: Promise<Store> } = {},
): Promise<Running> {
  const started = Date.now();
  // Where start-up time goes, logged with the listening line (decision 017).
  const phases: Record<string, number> = {};
  let last = started;
  const phase = (name: string) => {
    const now = Date.now();
    phases[name] = now - last;
    last = now;
  };
  const logger = createLogger(config.logLevel);
  const { database, control } = await (opts.store ?? openStore(config, opts.initialData));
  phase('database');
  await ensureReferenceData(database.db);
  phase('reference');
  await promoteAdmins(database.db, config.adminEmails);
  const transport = config.smtpUrl ? await createTransport(config.smtpUrl) : undefined;
  const mailer = createMailer({ db: database.db, from: config.mailFrom, transport, logger });
  const storage = await createStorage(config);
  if (storage.kind === 's3') {
    // Not fatal (the bucket may come up later; uploads then answer 503), but said at once.
    storage.ping().catch((err) => logger.error({ err, bucket: config.s3?.bucket }, 'the photo bucket does not answer'));
  }
  if (control) {
    const source = embeddedBackupSource(config, database, storage);
    control.handlers.backup = async (out) => {
      const manifest = await writeBackup(out, source);
      logger.info({ uploads: manifest.uploads, databaseBytes: manifest.databaseBytes }, 'backup written');
    };
  }
  const signer = createUrlSigner(config.authSecret);
  const bus = config.databaseUrl
    ? await createPostgresBus(config.databaseUrl, (err) => logger.error({ err }, 'realtime bus'))
    : createLocalBus();
  const deps = { config, database, mailer, storage, signer, bus, logger, clientDir: opts.clientDir ?? CLIENT_DIR };
  let demo: Awaited<ReturnType<typeof seedDemoData>> | undefined;
  if (config.seedDemo && !config.databaseUrl) demo = await seedDemoData(deps);
  phase('demo');
  const app = await buildApp(deps);
  if (transport) app.readiness.add('smtp', () => transport.verify(), 30_000);
  phase('app');
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      // Stops accepting, lets in-flight requests finish, then closes mail and the database.
      await app.close();
      await bus.close();
      await mailer.close();
      transport?.close();
      await database.close();
      storage.close();
      await control?.close();
    })();
    return closing;
  };
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    // A port already taken must not leave the database, bus and mail open behind the error.
    await close();
    throw err;
  }
  phase('listen');
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://localhost:${port}`;
  logger.info({ ms: Date.now() - started, phases, db: database.kind, mail: config.mailMode }, `Fancy is listening on ${url}`);
  if (config.mailMode === 'outbox-only') {
    logger.warn('MAIL_OUTBOX_ONLY: no SMTP_URL, so no mail is sent (verification and reset mail stay in the outbox)');
  }
  if (transport) {
    // Rows left pending or failed by an earlier run are retried once at start.
    mailer.retryDue().catch((err) => logger.error({ err }, 'mail retry failed'));
  }

  let draining: Promise<void> | undefined;
  const running: Running = {
    url,
    database,
    app,
    demo,
    drain() {
      draining ??= drain(app, config.drainDelayMs).then(() => running.close());
      return draining;
    },
    close,
  };
  return running;
}
