import type { FastifyInstance } from 'fastify';

/**
 * What follows a verified badge lost outside a profile write (a background re-check; decision
 * 031): the modules that keep something for verified members only register their reaction here
 * (the mixers module takes the member out of verified-only mixers), so verification, which loses
 * the badge, uses no module. A reaction catches its own errors.
 */
type Reaction = (userId: string) => Promise<void>;
const reactionsOf = new WeakMap<FastifyInstance, Reaction[]>();

export function onBadgeLost(app: FastifyInstance, reaction: Reaction) {
  const reactions = reactionsOf.get(app) ?? [];
  reactionsOf.set(app, [...reactions, reaction]);
}

export async function badgeLost(app: FastifyInstance, userId: string) {
  for (const reaction of reactionsOf.get(app) ?? []) await reaction(userId);
}
