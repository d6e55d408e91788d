import type { FastifyRequest } from 'fastify';
import { requireAdmin, requireSession, requireVerified } from './session';

/**
 * Route options that check the session before the body or params are validated, so an
 * anonymous call gets 401 (and an unverified one 403) rather than a 400 about its input.
 */
export const verifiedFirst = {
  preValidation: async (req: FastifyRequest) => {
    await requireVerified(req);
  },
};

/** As `verifiedFirst`, for the few routes an unverified account may use. */
export const sessionFirst = {
  preValidation: async (req: FastifyRequest) => {
    await requireSession(req);
  },
};

/** As `verifiedFirst`, for admin routes: a member gets 403 before their input is looked at. */
export const adminFirst = {
  preValidation: async (req: FastifyRequest) => {
    await requireAdmin(req);
  },
};
