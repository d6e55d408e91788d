import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type CachedBody, cachedJson } from '../../http/cached-json';
import { sendMaybeCompressed } from '../../http/compress';
import { listGenderOptions, listInterests, listOrientationOptions } from './service';

const TTL_MS = 30_000;

export type CatalogCache = ReturnType<typeof createCatalogCache>;

function createCatalogCache(app: FastifyInstance) {
  const db = () => app.deps.database.db;
  return {
    interests: cachedJson(async () => ({ interests: await listInterests(db()) }), TTL_MS),
    genderOptions: cachedJson(async () => ({ options: await listGenderOptions(db()) }), TTL_MS),
    orientationOptions: cachedJson(async () => ({ options: await listOrientationOptions(db()) }), TTL_MS),
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Call `catalog.interests.invalidate()` after changing the interest catalogue. */
    catalog: CatalogCache;
  }
}

/** Reference lists for the wizard and profile editor (spec §7 "Options", "Interests"). Public, cacheable briefly. */
export function registerCatalogRoutes(app: FastifyInstance) {
  const cache = createCatalogCache(app);
  app.decorate('catalog', cache);
  // Not async: a fresh body (nearly every request) is sent without a promise in between.
  // Compressed answers come from the cache's own brotli/gzip copies (decision 015).
  const send = (req: FastifyRequest, reply: FastifyReply, cached: CachedBody) =>
    sendMaybeCompressed(req, reply, cached.body, cached.encoded);
  const serve = (entry: CatalogCache['interests']) => (req: FastifyRequest, reply: FastifyReply) => {
    reply.header('cache-control', 'public, max-age=60').type('application/json; charset=utf-8');
    const cached = entry.fresh();
    if (cached === undefined) {
      // Resolves to the reply: Fastify then knows it is being sent (onSend hooks run after this
      // tick), instead of sending `undefined` itself and then writing twice.
      return entry.get().then((loaded) => send(req, reply, loaded));
    }
    send(req, reply, cached);
  };
  app.get('/api/catalog/interests', serve(cache.interests));
  app.get('/api/catalog/gender-options', serve(cache.genderOptions));
  app.get('/api/catalog/orientation-options', serve(cache.orientationOptions));
}
