import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import { z } from 'zod';
import { FRAME_MAX_BYTES, FRAME_PROBLEMS } from '../../../shared/verification';
import { adminFirst, verifiedFirst } from '../../auth/guards';
import { requireAdmin, requireVerified } from '../../auth/session';
import { AppError } from '../../http/errors';
import { onProfileWrite } from '../../http/profile-writes';
import { HOUR, MINUTE } from '../../http/rate-limiter';
import { startPeriodicJob } from '../../infra/jobs/periodic';
import { badgeLost } from '../../lib/badge-lost';
import { createFaceEngine, type FaceEngine } from './engine';
import { MAX_FRAMES } from './liveness';
import { frameFormatProblem } from './rules';
import {
  decideReview,
  getStatus,
  listEarlierChecks,
  listReviews,
  recheckEarlierMatches,
  reconcileMainPhoto,
  startChallenge,
  submitCheck,
  verificationMetrics,
  voidChallenge,
} from './service';

declare module 'fastify' {
  interface FastifyInstance {
    faces: FaceEngine;
  }
}

/** Each frame's step and capture time: `[[step, ms], …]`, in the order of the frames. */
const captureField = z.array(z.tuple([z.number().int().min(0).max(9), z.number().finite().min(0).max(600_000)])).max(MAX_FRAMES);
const NEED_CONSENT = 'Please tick the box to agree before we use your camera.';
const BAD_FRAMES = 'Your camera pictures did not arrive — please try again.';

const challengeBody = z.object({
  consent: z.literal(true, { error: NEED_CONSENT }),
  keepForReview: z.boolean().default(false),
  /** After a refusal: if this check says no again, a person looks at its frames (kept with consent). */
  appeal: z.boolean().default(false),
});

/** Get verified (issue 21, decision 022): consent + challenge, the check, the admin queue. */
export function registerVerificationRoutes(app: FastifyInstance) {
  app.decorate('faces', createFaceEngine(app.deps.config.verifyWorkers, app.deps.config.verifyWorkerPriority));
  app.addHook('onClose', () => app.faces.close());
  const limiter = app.limits.window('verification');
  const deps = () => app.deps;

  // The main photo changes through several endpoints (a new upload, "make main", removing it,
  // onboarding) and may through new ones: every successful write to the member's own profile
  // ends with one reconcile, which compares the photo the badge was checked against with the
  // current main photo (one indexed read; a re-check only when they differ). When the badge goes,
  // the mixers module's own reaction takes the member out of verified-only mixers.
  onProfileWrite(app, {
    stage: 'check',
    async run(req, userId) {
      try {
        await reconcileMainPhoto(app.deps, app.faces, userId);
      } catch (err) {
        req.log.warn({ err }, 'could not re-check the main photo against the verification');
      }
    },
  });

  // Badges from before today's match bar, re-checked from the kept face (decision 031): once when
  // ready, then now and again for badges whose re-check could not run yet.
  startPeriodicJob(app, 'verification re-check', 6 * HOUR, async () => {
    for (const userId of await recheckEarlierMatches(app.deps, app.faces)) await badgeLost(app, userId);
  });

  app.get('/api/verification', async (req, reply) => {
    const { user } = await requireVerified(req);
    reply.header('cache-control', 'no-store');
    return { status: await getStatus(deps().database.db, user.id) };
  });

  app.post('/api/verification/challenge', { ...verifiedFirst, schema: { body: challengeBody } }, async (req) => {
    const { user } = await requireVerified(req);
    await limiter.hit(
      `challenge:${user.id}`,
      [{ limit: 10, windowMs: HOUR }],
      'You have started a lot of checks. Please try again in an hour.',
    );
    const { keepForReview, appeal } = req.body as z.output<typeof challengeBody>;
    return { challenge: await startChallenge(deps(), user.id, keepForReview, appeal) };
  });

  app.register(async (scope) => {
    await scope.register(multipart, {
      throwFileSizeLimit: false,
      limits: { fileSize: FRAME_MAX_BYTES, files: MAX_FRAMES, fields: 2, fieldSize: 8 * 1024, parts: MAX_FRAMES + 2 },
    });

    scope.post('/api/verification/check', async (req) => {
      const { user } = await requireVerified(req);
      await limiter.hit(`check:${user.id}`, [{ limit: 6, windowMs: 10 * MINUTE }], 'Please wait a few minutes before trying again.');
      if (!req.isMultipart()) throw new AppError('unsupported_media_type', BAD_FRAMES);
      let challengeId = '';
      let captureText = '';
      const frames: Buffer[] = [];
      try {
        for await (const part of req.parts()) {
          if (part.type === 'field') {
            if (part.fieldname === 'challengeId') challengeId = String(part.value);
            if (part.fieldname === 'capture') captureText = String(part.value);
            continue;
          }
          const data = await part.toBuffer();
          if (part.file.truncated) throw new AppError('payload_too_large', 'A camera picture was too large — please try again.');
          frames.push(data);
        }
      } catch (err) {
        if (err instanceof AppError) throw err;
        throw new AppError('validation', BAD_FRAMES);
      }
      if (!z.uuid().safeParse(challengeId).success) throw new AppError('validation', 'This check has expired — please start again.');
      let captured: z.output<typeof captureField> | null = null;
      try {
        captured = captureField.parse(JSON.parse(captureText));
      } catch {
        captured = null;
      }
      if (!captured || frames.length < 2 || frames.length !== captured.length) throw new AppError('validation', BAD_FRAMES);
      const capture = captured.map(([step, t]) => ({ step, t }));
      // Told from the bytes, before the challenge is used: no try spent (decision 031).
      for (const f of frames) {
        const problem = frameFormatProblem(f, (await fileTypeFromBuffer(f))?.mime);
        if (!problem) continue;
        await voidChallenge(deps(), user.id, challengeId);
        throw new AppError(problem === 'unreadable' ? 'validation' : 'unsupported_media_type', FRAME_PROBLEMS[problem]);
      }
      return { result: await submitCheck(deps(), app.faces, user.id, challengeId, frames, capture) };
    });
  });

  // ——— admin ———
  app.get('/api/admin/verification/reviews', async (req, reply) => {
    await requireAdmin(req);
    reply.header('cache-control', 'no-store');
    const { db } = deps().database;
    return { reviews: await listReviews(deps()), metrics: await verificationMetrics(db), earlier: await listEarlierChecks(db) };
  });

  app.post(
    '/api/admin/verification/reviews/:id',
    { ...adminFirst, schema: { params: z.object({ id: z.uuid() }), body: z.object({ decision: z.enum(['approve', 'decline']) }) } },
    async (req) => {
      const { user } = await requireAdmin(req);
      const { id } = req.params as { id: string };
      await decideReview(deps(), user.id, id, (req.body as { decision: 'approve' | 'decline' }).decision);
      return { ok: true };
    },
  );
}
