import type { FastifyInstance } from 'fastify';
import { listGenderOptions, listInterests, listOrientationOptions } from './service';

/** Reference lists for the wizard and profile editor (spec §7 "Options", "Interests"). Public, cacheable briefly. */
export function registerCatalogRoutes(app: FastifyInstance) {
  const db = () => app.deps.database.db;
  app.get('/api/catalog/interests', async (_req, reply) => {
    reply.header('cache-control', 'public, max-age=60');
    return { interests: await listInterests(db()) };
  });
  app.get('/api/catalog/gender-options', async (_req, reply) => {
    reply.header('cache-control', 'public, max-age=60');
    return { options: await listGenderOptions(db()) };
  });
  app.get('/api/catalog/orientation-options', async (_req, reply) => {
    reply.header('cache-control', 'public, max-age=60');
    return { options: await listOrientationOptions(db()) };
  });
}
