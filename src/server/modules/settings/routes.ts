import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  SETTINGS_MESSAGES,
  changeEmailSchema,
  changePasswordSchema,
  confirmPasswordSchema,
  type UpdateSettingsInput,
  updateSettingsSchema,
  verifyTotpSchema,
} from '../../../shared/schemas/settings';
import { mainPhotoSchema, type ProfileEdit, profileEditSchema, reorderPhotosSchema } from '../../../shared/schemas/profile-edit';
import { requireSession, requireVerified } from '../../auth/session';
import { sessionFirst, verifiedFirst } from '../../auth/guards';
import { markReauthenticated, requireRecentAuth } from '../../auth/reauth';
import { AppError } from '../../http/errors';
import { HOUR, MINUTE } from '../../http/rate-limiter';
import { consume } from '../../http/shared-limits';
import { buildExport, exportFileName } from './export';
import { editProfile, makeMainPhoto, reorderPhotos } from './profile-edit';
import {
  assertPassword,
  changeEmail,
  changePassword,
  confirmTwoFactor,
  disableTwoFactor,
  isWrongPassword,
  regenerateBackupCodes,
  startTwoFactor,
} from './security';
import { getSettings, updateSettings } from './service';
import { listSessions, revokeOtherSessions, revokeSession } from './sessions';

const TOO_MANY_PASSWORD_TRIES = 'Too many attempts. Please wait a few minutes and try again.';

/** Settings (privacy, notifications), security (password, email, sessions, two-step) and the data export. */
export function registerSettingsRoutes(app: FastifyInstance) {
  const limiter = app.limits.window('settings');
  const db = () => app.deps.database.db;
  /**
   * Wrong passwords on a signed-in session (docs/decisions/006): 10 per session, so a stolen session
   * can guess little and blocks only itself; 30 per member across sessions, a total no single session
   * can reach, against guessing from several. Right passwords never count.
   */
  const failuresPerSession = [{ limit: 10, windowMs: 15 * MINUTE }];
  const failuresPerUser = [{ limit: 30, windowMs: 15 * MINUTE }];
  const noStore = { 'cache-control': 'no-store' };
  const withFailureLimits = async <T>(
    kind: 'password' | 'totp',
    isFailure: (err: unknown) => boolean,
    me: { user: { id: string }; session: { id: string } },
    run: () => Promise<T>,
  ): Promise<T> => {
    // Counted as a failure before the attempt (parallel guesses cannot all pass), given back unless it was one.
    const giveBack = await consume(
      limiter,
      [
        [`${kind}-fail:session:${me.session.id}`, failuresPerSession],
        [`${kind}-fail:user:${me.user.id}`, failuresPerUser],
      ],
      TOO_MANY_PASSWORD_TRIES,
    );
    try {
      const result = await run();
      await giveBack();
      return result;
    } catch (err) {
      if (!isFailure(err)) await giveBack();
      throw err;
    }
  };
  const withPasswordLimits = <T>(me: { user: { id: string }; session: { id: string } }, run: () => Promise<T>) =>
    withFailureLimits('password', isWrongPassword, me, run);
  // Wrong codes while turning two-step verification on: counted the same way, apart from passwords.
  const isWrongCode = (err: unknown) => err instanceof AppError && err.fields?.code === SETTINGS_MESSAGES.codeWrong;

  app.get('/api/settings', async (req, reply) => {
    const { user } = await requireVerified(req);
    reply.headers(noStore);
    return { settings: await getSettings(db(), user.id) };
  });

  app.patch('/api/settings', { ...verifiedFirst, schema: { body: updateSettingsSchema } }, async (req) => {
    const { user } = await requireVerified(req);
    await limiter.hit(`settings:${user.id}`, [{ limit: 300, windowMs: HOUR }]);
    return { settings: await updateSettings(db(), user.id, req.body as UpdateSettingsInput) };
  });

  app.get('/api/me/sessions', async (req, reply) => {
    const me = await requireVerified(req);
    reply.headers(noStore);
    return { sessions: await listSessions(db(), me.user.id, me.session.id) };
  });

  app.delete(
    '/api/me/sessions/:id',
    { ...verifiedFirst, schema: { params: z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'Unknown session') }) } },
    async (req) => {
      const me = await requireVerified(req);
      await revokeSession(app, req, me.user.id, me.session.id, (req.params as { id: string }).id);
      return { ok: true };
    },
  );

  app.post('/api/me/sessions/revoke-others', async (req) => {
    const me = await requireVerified(req);
    return { ok: true, revoked: await revokeOtherSessions(app, req, me.user.id, me.session.id) };
  });

  app.post('/api/me/password', { ...verifiedFirst, schema: { body: changePasswordSchema } }, async (req, reply) => {
    const me = await requireVerified(req);
    await withPasswordLimits(me, () => changePassword(app, req, reply, me, req.body as { currentPassword: string; newPassword: string }));
    return reply.send({ ok: true });
  });

  app.post('/api/me/email', { ...verifiedFirst, schema: { body: changeEmailSchema } }, async (req) => {
    const me = await requireVerified(req);
    await limiter.check(`password-fail:session:${me.session.id}`, failuresPerSession, TOO_MANY_PASSWORD_TRIES);
    await limiter.hit(
      `email:${me.user.id}`,
      [{ limit: 5, windowMs: HOUR }],
      'You have asked for a lot of email changes. Please try again later.',
    );
    const body = req.body as { newEmail: string; password: string };
    await withPasswordLimits(me, () => changeEmail(app, req, me, body));
    return { ok: true, pendingEmail: body.newEmail };
  });

  app.post('/api/me/two-factor/enable', { ...verifiedFirst, schema: { body: confirmPasswordSchema } }, async (req) => {
    const me = await requireVerified(req);
    return withPasswordLimits(me, () => startTwoFactor(app, req, (req.body as { password: string }).password));
  });

  app.post('/api/me/two-factor/verify', { ...verifiedFirst, schema: { body: verifyTotpSchema } }, async (req, reply) => {
    const me = await requireVerified(req);
    await withFailureLimits('totp', isWrongCode, me, () => confirmTwoFactor(app, req, reply, me, (req.body as { code: string }).code));
    return reply.send({ ok: true });
  });

  app.post('/api/me/two-factor/disable', { ...verifiedFirst, schema: { body: confirmPasswordSchema } }, async (req, reply) => {
    const me = await requireVerified(req);
    await withPasswordLimits(me, () => disableTwoFactor(app, req, reply, me, (req.body as { password: string }).password));
    return reply.send({ ok: true });
  });

  app.post('/api/me/two-factor/backup-codes', { ...verifiedFirst, schema: { body: confirmPasswordSchema } }, async (req) => {
    const me = await requireVerified(req);
    return {
      backupCodes: await withPasswordLimits(me, () => regenerateBackupCodes(app, req, (req.body as { password: string }).password)),
    };
  });

  // /profile: edit the sections in place; the profile module's own endpoints serve reads and uploads.
  const profileRule = [{ limit: 600, windowMs: HOUR }];
  app.patch('/api/me/profile', { ...verifiedFirst, schema: { body: profileEditSchema } }, async (req) => {
    const { user } = await requireVerified(req);
    await limiter.hit(`profile:${user.id}`, profileRule);
    return { profile: await editProfile(app.deps, user.id, req.body as ProfileEdit) };
  });

  app.put('/api/me/profile/photos', { ...verifiedFirst, schema: { body: reorderPhotosSchema } }, async (req) => {
    const { user } = await requireVerified(req);
    await limiter.hit(`profile:${user.id}`, profileRule);
    return { profile: await reorderPhotos(app.deps, user.id, (req.body as { order: string[] }).order) };
  });

  app.post('/api/me/profile/photos/main', { ...verifiedFirst, schema: { body: mainPhotoSchema } }, async (req) => {
    const { user } = await requireVerified(req);
    await limiter.hit(`profile:${user.id}`, profileRule);
    return { profile: await makeMainPhoto(app.deps, user.id, (req.body as { key: string }).key) };
  });

  /** Re-enter the password before deleting the account or downloading the export (docs/decisions/006). */
  app.post('/api/me/reauthenticate', { ...sessionFirst, schema: { body: confirmPasswordSchema } }, async (req) => {
    const me = await requireSession(req);
    await withPasswordLimits(me, () => assertPassword(app, me.user.id, (req.body as { password: string }).password));
    await markReauthenticated(app, me.session.id);
    return { ok: true };
  });

  /** "Download my data": one JSON file, produced on request. Open to unverified accounts too (their data, their right). */
  app.get('/api/me/export', async (req, reply) => {
    const me = await requireSession(req);
    const { user } = me;
    await requireRecentAuth(app, me);
    await limiter.hit(`export:${user.id}`, [{ limit: 10, windowMs: HOUR }], 'You have downloaded your data a lot. Please try again later.');
    const now = new Date();
    const data = await buildExport(app.deps, user.id, now);
    if (!data) throw new AppError('not_found', 'No user found');
    return reply
      .headers({
        ...noStore,
        'content-type': 'application/json; charset=utf-8',
        'content-disposition': `attachment; filename="${exportFileName(now)}"`,
      })
      .send(JSON.stringify(data, null, 2));
  });
}
