import type { FastifyInstance } from 'fastify';

/**
 * Tells invited members about their new invitations: an in-app notice and a mail (unless
 * `notifyInvitations` is off). The formation job calls it after its transaction commits.
 * Contract stub (issue 14): the invitations module fills it in.
 */
export async function announceInvitations(_app: FastifyInstance, _invitationIds: string[]): Promise<void> {}
