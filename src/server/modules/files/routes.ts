import type { FastifyInstance } from 'fastify';
import { requireSession } from '../../auth/session';
import { AppError } from '../../http/errors';
import { isSafeKey } from '../../infra/storage/storage';

/** Photos are served only through signed, expiring URLs and only to signed-in members (DESIGN §6). */
export function registerFileRoutes(app: FastifyInstance) {
  app.get('/api/files/*', async (req, reply) => {
    await requireSession(req);
    const key = (req.params as { '*': string })['*'];
    const { exp, sig } = req.query as { exp?: string; sig?: string };
    if (!isSafeKey(key) || !sig || !app.deps.signer.verify(key, Number(exp), sig)) {
      throw new AppError('forbidden', 'This link has expired. Reload the page to see the photo.');
    }
    const file = await app.deps.storage.get(key);
    if (!file) throw new AppError('not_found', 'That photo no longer exists.');
    return reply
      .header('content-type', file.contentType)
      .header('cache-control', 'private, max-age=3600')
      .header('x-content-type-options', 'nosniff')
      .header('content-disposition', 'inline')
      .send(file.data);
  });
}
