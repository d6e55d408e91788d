import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

/** A request slower than this is logged (warn); errors are logged by the error handler. */
export const SLOW_REQUEST_MS = 1000;

/**
 * Replaces Fastify's two log lines per request (`disableRequestLogging`): only slow requests
 * are logged here, with what an operator needs to find them.
 */
export function registerSlowRequestLog(app: FastifyInstance, slowMs = SLOW_REQUEST_MS) {
  app.addHook('onResponse', (req, reply, done) => {
    const ms = reply.elapsedTime;
    if (ms >= slowMs) {
      req.log.warn(
        // The path only: query strings carry tokens (verification, reset) and search terms.
        { method: req.method, path: req.url.split('?')[0], route: req.routeOptions.url, statusCode: reply.statusCode, ms: Math.round(ms) },
        'slow request',
      );
    }
    done();
  });
}

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildOptions = Parameters<FastifyBaseLogger['child']>[1];
type Log = (...args: unknown[]) => void;

/**
 * `req.log` for each request, made only when something is logged: pino serialises a child's
 * bindings when it is created, which cost a few per cent of a small read that logs nothing.
 */
class LazyChildLogger {
  private made: FastifyBaseLogger | undefined;
  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildOptions,
  ) {}
  private get log(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }
  get level() {
    return this.made?.level ?? this.options?.level ?? this.parent.level;
  }
  set level(level: string) {
    this.log.level = level;
  }
  fatal(...args: unknown[]) {
    (this.log.fatal as Log)(...args);
  }
  error(...args: unknown[]) {
    (this.log.error as Log)(...args);
  }
  warn(...args: unknown[]) {
    (this.log.warn as Log)(...args);
  }
  info(...args: unknown[]) {
    (this.log.info as Log)(...args);
  }
  debug(...args: unknown[]) {
    (this.log.debug as Log)(...args);
  }
  trace(...args: unknown[]) {
    (this.log.trace as Log)(...args);
  }
  silent(...args: unknown[]) {
    (this.log.silent as Log)(...args);
  }
  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.log.child(bindings, options);
  }
}

/** For Fastify's `childLoggerFactory` option. */
export function lazyChildLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildOptions): FastifyBaseLogger {
  return new LazyChildLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
}
