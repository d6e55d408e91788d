import type { Logger } from 'pino';
import type { ServerEvent } from '../shared/realtime/events';
import type { Config } from './config';
import type { Database } from './db/client';
import type { HostResolver } from './lib/public-address';
import type { Mailer } from './infra/mail/mailer';
import type { Storage, UrlSigner } from './infra/storage/storage';
import type { RealtimeBus } from './realtime/bus';

/** What the app is built from (`buildApp(deps)` in app.ts); services take it, or a `Pick<>` of it. */
export interface AppDeps {
  config: Config;
  database: Database;
  mailer: Mailer;
  /** Built SPA (index.html + assets). Without it only the API is served. */
  clientDir?: string;
  storage: Storage;
  signer: UrlSigner;
  /** Cross-instance fan-out; an in-process bus when not given (embedded mode, tests). */
  bus?: RealtimeBus;
  /** DNS for connections to addresses members give (push endpoints); the system resolver when not given, a stub in tests. */
  resolveHost?: HostResolver;
  /** The process's logger (infra/log); tests pass false for none. */
  logger?: false | Logger;
}

/** How modules hand events to the realtime hub (`app.realtime.publish`); they never touch sockets (decision 027). */
export type Publish = (room: string, event: ServerEvent) => Promise<void> | void;
