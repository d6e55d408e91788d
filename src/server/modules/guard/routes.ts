import type { FastifyInstance } from 'fastify';
import { hiddenWordsSchema, type HiddenWordsInput } from '../../../shared/schemas/guard';
import { verifiedFirst } from '../../auth/guards';
import { requireVerified } from '../../auth/session';
import { HOUR } from '../../http/rate-limiter';
import { listHiddenWords, saveHiddenWords } from './service';

/** Hidden words (issue 30, Settings): the member's own list, private to them. */
export function registerGuardRoutes(app: FastifyInstance) {
  const limiter = app.limits.window('hidden-words');
  const db = () => app.deps.database.db;

  app.get('/api/settings/hidden-words', verifiedFirst, async (req, reply) => {
    const { user } = await requireVerified(req);
    reply.header('cache-control', 'no-store');
    return { words: await listHiddenWords(db(), user.id) };
  });

  app.put('/api/settings/hidden-words', { ...verifiedFirst, schema: { body: hiddenWordsSchema } }, async (req) => {
    const { user } = await requireVerified(req);
    await limiter.hit(`hidden-words:${user.id}`, [{ limit: 120, windowMs: HOUR }]);
    return { words: await saveHiddenWords(db(), user.id, (req.body as HiddenWordsInput).words) };
  });
}
