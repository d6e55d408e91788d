import type { FastifyInstance, FastifyRequest, onSendHookHandler } from 'fastify';
import { getSession } from '../auth/session';

/** Routes that write the member's own profile (`/api/profile/…`, `/api/me/profile/…`, onboarding's draft and completion). */
const PROFILE_WRITES = /^\/api\/(me\/)?profile(\/|$)/;
const READS = new Set(['GET', 'HEAD']);

/**
 * What follows a successful write to a member's own profile, whichever route made it (and any
 * new route under those paths). `check` work changes what the member is (the verified badge's
 * photo re-check) and runs first; `settle` work reacts to what the member now is (seats whose
 * side or verified-only rule no longer fits). Each is its module's own and catches its own errors:
 * a reaction never fails the write that was made.
 */
export interface ProfileWriteReaction {
  stage: 'check' | 'settle';
  run(req: FastifyRequest, userId: string): Promise<void>;
}

const reactionsOf = new WeakMap<FastifyInstance, ProfileWriteReaction[]>();

/**
 * Called in buildApp before any route: attaches one onSend hook to the profile-write routes
 * only (as each is registered), so every other request runs nothing for it. It runs the
 * reactions before the answer is sent, so the member's next read already shows their outcome.
 */
export function registerProfileWrites(app: FastifyInstance) {
  const reactions: ProfileWriteReaction[] = [];
  reactionsOf.set(app, reactions);
  const afterWrite: onSendHookHandler = async (req, reply, payload) => {
    if (READS.has(req.method) || reply.statusCode >= 400 || reactions.length === 0) return payload;
    const session = await getSession(req).catch(() => null);
    if (!session) return payload;
    for (const stage of ['check', 'settle'] as const) {
      for (const reaction of reactions) if (reaction.stage === stage) await reaction.run(req, session.user.id);
    }
    return payload;
  };
  app.addHook('onRoute', (route) => {
    if (!PROFILE_WRITES.test(route.url ?? '') || [route.method].flat().every((m) => READS.has(m))) return;
    route.onSend = [...[route.onSend ?? []].flat(), afterWrite];
  });
}

/** Adds work that follows every profile write (see `ProfileWriteReaction`). */
export function onProfileWrite(app: FastifyInstance, reaction: ProfileWriteReaction) {
  const reactions = reactionsOf.get(app);
  if (!reactions) throw new Error('registerProfileWrites(app) must run before onProfileWrite');
  reactions.push(reaction);
}
