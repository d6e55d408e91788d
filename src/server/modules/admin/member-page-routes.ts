import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { memberPageParamsSchema, memberSearchQuerySchema } from '../../../shared/schemas/admin-members';
import { requireAdmin } from '../../auth/session';
import { memberDetail, searchMembers } from './member-page';

/**
 * /api/admin/members (issue 32): search, and one member's page. Like the other admin routes, one
 * scope whose first hook checks the role on the server (401 signed out, 403 not an admin) before
 * the query is even validated. Never cached.
 */
export function registerAdminMemberRoutes(app: FastifyInstance) {
  app.register(async (scope) => {
    scope.addHook('onRequest', async (req, reply) => {
      await requireAdmin(req);
      reply.header('cache-control', 'no-store');
    });
    const db = () => app.deps.database.db;

    scope.get('/api/admin/members', { schema: { querystring: memberSearchQuerySchema } }, async (req) => {
      const { q, limit } = req.query as z.output<typeof memberSearchQuerySchema>;
      return searchMembers(db(), q, limit);
    });
    scope.get('/api/admin/members/:id', { schema: { params: memberPageParamsSchema } }, async (req) =>
      memberDetail(db(), (req.params as z.output<typeof memberPageParamsSchema>).id),
    );
  });
}
