import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  type PushSettingsInput,
  type PushSubscribeInput,
  pushSettingsSchema,
  pushSubscribeSchema,
  pushUnsubscribeSchema,
} from '../../../shared/schemas/push';
import { requireVerified } from '../../auth/session';
import { verifiedFirst } from '../../auth/guards';
import { HOUR } from '../../http/rate-limiter';
import { listDevices, removeDevice, subscribe, unsubscribeEndpoint, updateDevice } from './service';

const idParams = z.object({ id: z.uuid('That device is not in your list.') });

/** Web Push: the public key, this member's devices and their settings (Settings → Notifications). */
export function registerPushRoutes(app: FastifyInstance) {
  const limiter = app.limits.window('push');
  const noStore = { 'cache-control': 'no-store' };

  /** The VAPID public key browsers subscribe with (`null` when push is not set up); members only, like subscribing. */
  app.get('/api/push/key', async (req, reply) => {
    await requireVerified(req);
    reply.headers(noStore);
    return { publicKey: app.deps.config.vapid?.publicKey ?? null };
  });

  app.get('/api/push/devices', { schema: { querystring: z.object({ endpoint: z.string().max(2048).optional() }) } }, async (req, reply) => {
    const { user } = await requireVerified(req);
    reply.headers(noStore);
    return { devices: await listDevices(app, user.id, (req.query as { endpoint?: string }).endpoint) };
  });

  app.post('/api/push/devices', { ...verifiedFirst, schema: { body: pushSubscribeSchema } }, async (req) => {
    const { user, session } = await requireVerified(req);
    await limiter.hit(`push-subscribe:${user.id}`, [{ limit: 60, windowMs: HOUR }]);
    return { device: await subscribe(app, user.id, session.id, req.body as PushSubscribeInput, req.headers['user-agent']) };
  });

  app.patch('/api/push/devices/:id', { ...verifiedFirst, schema: { params: idParams, body: pushSettingsSchema } }, async (req) => {
    const { user } = await requireVerified(req);
    await limiter.hit(`push-settings:${user.id}`, [{ limit: 300, windowMs: HOUR }]);
    return { device: await updateDevice(app, user.id, (req.params as { id: string }).id, req.body as PushSettingsInput) };
  });

  app.delete('/api/push/devices/:id', { ...verifiedFirst, schema: { params: idParams } }, async (req) => {
    const { user } = await requireVerified(req);
    await removeDevice(app, user.id, (req.params as { id: string }).id);
    return { ok: true };
  });

  /** The browser's own subscription ended (the member turned push off here). */
  app.post('/api/push/unsubscribe', { ...verifiedFirst, schema: { body: pushUnsubscribeSchema } }, async (req) => {
    const { user } = await requireVerified(req);
    await unsubscribeEndpoint(app, user.id, (req.body as { endpoint: string }).endpoint);
    return { ok: true };
  });
}
