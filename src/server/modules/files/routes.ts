import type { FastifyInstance } from 'fastify';
import { requireSession } from '../../auth/session';
import { AppError } from '../../http/errors';
import { isSafeKey } from '../../infra/storage/storage';
import { isHiddenFrom } from '../safety/service';

/**
 * Photos are served only through signed, expiring URLs and only to signed-in members (DESIGN §6).
 * The owner (the key's `{userId}/` folder) is checked on every request, so a block or a
 * suspension takes effect at once, even for URLs handed out before it. Admins moderate and
 * see every photo.
 */
export function registerFileRoutes(app: FastifyInstance) {
  app.get('/api/files/*', async (req, reply) => {
    const { user } = await requireSession(req);
    const key = (req.params as { '*': string })['*'];
    const { exp, sig } = req.query as { exp?: string; sig?: string };
    if (!isSafeKey(key) || !sig || !app.deps.signer.verify(key, Number(exp), sig)) {
      throw new AppError('forbidden', 'This link has expired. Reload the page to see the photo.');
    }
    const owner = key.split('/')[0];
    const gone = () => new AppError('not_found', 'That photo no longer exists.');
    // Report evidence (issue 30) is for moderators only.
    if (owner === 'evidence' && user.role !== 'admin') throw gone();
    if (owner !== user.id && user.role !== 'admin' && (await isHiddenFrom(app.deps.database.db, user.id, owner))) throw gone();
    const file = await app.deps.storage.get(key).catch((err) => {
      // The bucket (or disk) failing is an outage, not a missing photo: the browser may retry.
      req.log.error({ err, key }, 'photo storage read failed');
      throw new AppError('unavailable', 'Photos cannot be shown right now. Please try again in a moment.');
    });
    if (!file) throw gone();
    return reply
      .header('content-type', file.contentType)
      .header('cache-control', 'private, max-age=3600')
      .header('x-content-type-options', 'nosniff')
      .header('content-disposition', 'inline')
      .send(file.data);
  });
}
