import { existsSync } from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
  type onRequestHookHandler,
} from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import '../shared/schemas/zod-defaults';
import { PRERENDERED_PAGES } from '../shared/prerendered';
import { matchRoutePreload, ROUTE_PRELOADS } from '../shared/route-preload';
import { createAuth, type Auth } from './auth/auth';
import { SessionCache } from './auth/session-cache';
import { registerAuthRoutes } from './auth/routes';
import type { AppDeps } from './deps';
import { registerDevMailbox } from './infra/mail/dev-mailbox';
import { createLogger } from './infra/log';
import { startMailRetention } from './infra/mail/retention';
import { registerModerationMemberRoutes } from './modules/admin/member-routes';
import { startModerationRetention } from './modules/admin/moderation-retention';
import { AppError, registerErrorHandling } from './http/errors';
import { clientErrorHandler, frameworkErrors, registerUpgradeCleanup, TOO_LONG } from './http/framework-errors';
import { registerOriginCheck } from './http/origin';
import { lazyChildLogger, registerSlowRequestLog } from './http/request-log';
import { registerSecurityHeaders } from './http/security-headers';
import { registerJsonCompression } from './http/compress';
import { createPageServer, isPagePath, notFoundJson, registerCrawlerFiles } from './http/pages';
import { createMemberPageServer } from './http/member-page';
import { createLimits, type Limits } from './http/shared-limits';
import { startPeriodicJob } from './infra/jobs/periodic';
import { registerMetrics } from './infra/metrics/metrics';
import { registerProfileWrites } from './http/profile-writes';
import { registerAdminRoutes } from './modules/admin/routes';
import { registerAdminMemberRoutes } from './modules/admin/member-page-routes';
import { registerAfterMixerRoutes } from './modules/after-mixer/routes';
import { registerAvailabilityRoutes } from './modules/availability/routes';
import { registerCatalogRoutes } from './modules/catalog/routes';
import { registerContactRoutes } from './modules/contact/routes';
import { registerFancyRoutes } from './modules/fancies/routes';
import { registerFileRoutes } from './modules/files/routes';
import { startFormation } from './modules/formation/job';
import { registerGuardRoutes } from './modules/guard/routes';
import { registerHealthRoutes } from './modules/health/routes';
import { registerHostRoutes } from './modules/host/routes';
import { startHost } from './modules/host/service';
import { registerInvitationRoutes } from './modules/invitations/routes';
import { startInvitationExpiry } from './modules/invitations/service';
import { startMixerLifecycle } from './modules/mixers/lifecycle';
import { registerMixerRoutes } from './modules/mixers/routes';
import { registerMatchRoutes } from './modules/matches/routes';
import { registerMemberRoutes } from './modules/members/routes';
import { registerMessageRoutes } from './modules/messages/routes';
import { registerSafetyRoutes } from './modules/safety/routes';
import { registerBlockRoutes } from './modules/blocks/routes';
import { registerLinePrivacyRoutes } from './modules/line-privacy/routes';
import { registerProfileRoutes } from './modules/profiles/routes';
import { startMixerPushReminders, startPushSubscriptionSweep } from './modules/push/reminders';
import { registerPushRoutes } from './modules/push/routes';
import { registerReliabilityRoutes } from './modules/reliability/routes';
import { startMixerReminders } from './modules/settings/reminders';
import { registerSettingsRoutes } from './modules/settings/routes';
import { registerStatsRoutes } from './modules/stats/routes';
import { registerVerificationRoutes } from './modules/verification/routes';
import { createLocalBus } from './realtime/bus';
import { RealtimeHub } from './realtime/hub';
import { registerRealtimeRoutes } from './realtime/routes';

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
    auth: Auth;
    realtime: RealtimeHub;
    sessionCache: SessionCache;
    /** Rate limits, shared by every instance on PostgreSQL (docs/decisions/020). */
    limits: Limits;
  }
}

const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;
/** Fastify's default: a path parameter (or, on the SPA wildcard, a path segment) longer than this is 414. */
const MAX_PARAM_LENGTH = 100;

/** Builds the whole HTTP app without listening; tests use it in-process. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  const logger = deps.logger === false ? undefined : (deps.logger ?? createLogger(config.logLevel));
  const app = Fastify({
    ...(logger ? { loggerInstance: logger as FastifyBaseLogger } : { logger: false }),
    // No two log lines per request: errors are logged by the error handler, slow requests below.
    logController: new LogController({ disableRequestLogging: true }),
    ...(deps.logger === false ? {} : { childLoggerFactory: lazyChildLogger }),
    // A number of proxies trusts that many hops from the right of X-Forwarded-For (Fastify's own rule).
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors,
    clientErrorHandler,
    // The zod compilers from the start: Fastify's defaults (ajv, fast-json-stringify) would be
    // loaded and built only to be replaced, ~150 ms of every start (decision 017).
    // (Fastify types these factories for ajv only; the same compilers setValidatorCompiler takes.)
    schemaController: {
      compilersFactory: { buildValidator: () => validatorCompiler, buildSerializer: () => serializerCompiler },
    } as unknown as FastifyServerOptions['schemaController'],
  }).withTypeProvider<ZodTypeProvider>();
  // JSON only (decision 008): Fastify's text/plain parser would hand a string to the schemas.
  // Uploads register their multipart parser in their own scope.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('deps', deps);
  app.decorate('auth', createAuth({ ...deps, log: logger }));
  const bus = deps.bus ?? createLocalBus();
  app.decorate('realtime', new RealtimeHub(bus, (err) => app.log.error({ err }, 'presence announcement failed')));
  const sessionCache = new SessionCache();
  bus.onMessage((m) => sessionCache.onBusMessage(m));
  app.decorate('sessionCache', sessionCache);
  if (!deps.bus) app.addHook('onClose', () => bus.close());
  const limits = createLimits(database);
  app.decorate('limits', limits);
  if (limits.kind === 'postgres') startPeriodicJob(app, 'rate-limit sweep', 5 * 60_000, () => limits.sweep());

  registerMetrics(app);
  registerSecurityHeaders(app, { production: config.env === 'production', publicUrl: config.publicUrl });
  registerJsonCompression(app);
  // Cookies are parsed only where needed (session-cache reads the header itself); the plugin
  // stays for reply.setCookie/clearCookie.
  await app.register(cookie, { hook: false });
  registerErrorHandling(app);
  registerUpgradeCleanup(app);
  if (deps.logger !== false) registerSlowRequestLog(app);
  registerOriginCheck(app, config.publicUrl);
  registerProfileWrites(app);

  registerHealthRoutes(app);
  registerCatalogRoutes(app);
  registerAuthRoutes(app);
  registerFileRoutes(app);
  registerStatsRoutes(app);
  registerProfileRoutes(app);
  registerContactRoutes(app);
  registerMixerRoutes(app);
  registerAfterMixerRoutes(app);
  registerAvailabilityRoutes(app);
  registerReliabilityRoutes(app);
  startMixerLifecycle(app);
  registerHostRoutes(app);
  startHost(app);
  registerInvitationRoutes(app);
  startInvitationExpiry(app);
  startFormation(app);
  registerFancyRoutes(app);
  registerMatchRoutes(app);
  registerMemberRoutes(app);
  registerMessageRoutes(app);
  registerSafetyRoutes(app);
  registerBlockRoutes(app);
  registerGuardRoutes(app);
  registerLinePrivacyRoutes(app);
  registerAdminRoutes(app);
  registerAdminMemberRoutes(app);
  registerModerationMemberRoutes(app);
  registerSettingsRoutes(app);
  registerPushRoutes(app);
  startMixerPushReminders(app);
  startPushSubscriptionSweep(app);
  registerVerificationRoutes(app);
  startMixerReminders(app);
  startMailRetention(app);
  startModerationRetention(app);
  await registerRealtimeRoutes(app);
  if (config.devMailbox) registerDevMailbox(app, database.db);

  const clientDir = deps.clientDir;
  const indexHtml = clientDir ? path.join(clientDir, 'index.html') : undefined;
  const hasClient = Boolean(indexHtml && existsSync(indexHtml));
  registerCrawlerFiles(app);
  let servePage: ReturnType<typeof createPageServer> | undefined;
  let memberPage: ReturnType<typeof createMemberPageServer> | undefined;
  if (clientDir && hasClient) {
    // The wildcard `/*` also catches API paths whose parameter is over maxParamLength (and any
    // other over-long path): answer those 414 like the router does, not the file lookup's 403/404.
    // Attached to that route alone (as the static plugin registers it), so no other request runs it.
    const tooLong: onRequestHookHandler = (req, _reply, done) => {
      const pathname = req.url.split('?')[0];
      done(pathname.split('/').some((segment) => segment.length > MAX_PARAM_LENGTH) ? new AppError('uri_too_long', TOO_LONG) : undefined);
    };
    app.addHook('onRoute', (route) => {
      if (route.url === '/*') route.onRequest = [...[route.onRequest ?? []].flat(), tooLong];
    });
    await app.register(fastifyStatic, {
      root: clientDir,
      index: false,
      // Files are looked up per request, so a rebuild's new assets are served without a restart.
      wildcard: true,
      // The build writes .br and .gz beside each text asset (vite.config.ts): sent with
      // Content-Encoding and Vary: Accept-Encoding when the client accepts them (decision 015).
      preCompressed: true,
      maxAge: '1y',
      immutable: true,
      setHeaders(res, filePath) {
        if (!filePath.includes(`${path.sep}assets${path.sep}`)) res.header('cache-control', 'no-cache');
      },
    });
    // Every page of the shared route table is the app (the signed-out ones with their build-time
    // HTML, decision 015, and link-preview tags); other paths are the app's not-found page with
    // 404 (issue 20, decision 021). The static wildcard would answer `/` itself with 403.
    servePage = createPageServer(app, clientDir);
    memberPage = createMemberPageServer(app, clientDir);
    const page = servePage;
    const members = memberPage;
    for (const route of Object.keys(PRERENDERED_PAGES))
      app.get(route, (req, reply) => {
        members.warm();
        return page(req, reply);
      });
    // A sign-in (the app's or a script's) is followed by member pages.
    app.addHook('onResponse', (req, reply, done) => {
      if (req.method === 'POST' && reply.statusCode === 200 && req.routeOptions.url === '/api/auth/login') members.warm();
      done();
    });
    // Member pages have routes of their own, so a request for one never goes through the static
    // files' wildcard first (a stat and a directory listing per request, issue 32's flood).
    for (const { pattern } of ROUTE_PRELOADS)
      app.get(pattern, (req, reply) => (isPagePath(req) ? servePath(req, reply) : notFoundJson(reply)));
  }

  /** A page path: a member page with its first reads (and render), else the page server. */
  function servePath(req: FastifyRequest, reply: FastifyReply) {
    // Someone is using the app: have the member pages' renderer ready for their first one.
    memberPage?.warm();
    const member = matchRoutePreload(req.url.split('?')[0]);
    if (member && memberPage && memberRouteBuilt(member.route.file)) return memberPage(req, reply, member.route, member.id);
    return (servePage as NonNullable<typeof servePage>)(req, reply);
  }
  /** Whether the build has the route's page (once it has, not looked up again). */
  const builtRoutes = new Map<string, boolean>();
  function memberRouteBuilt(file: string): boolean {
    if (!builtRoutes.get(file)) builtRoutes.set(file, existsSync(path.join(clientDir as string, 'routes', file)));
    return builtRoutes.get(file) === true;
  }

  app.setNotFoundHandler((req, reply) => {
    // API paths, other methods and missing files (anything with an extension) are JSON 404s.
    if (!servePage || !isPagePath(req)) return notFoundJson(reply);
    // A member page comes with its chunks named for preloading and its first reads' answers in
    // it, so code starts with the HTML and the data is there when it runs (decision 018); every
    // other page, and the not-found page, from the page server (decision 021).
    return servePath(req, reply);
  });

  return app;
}
