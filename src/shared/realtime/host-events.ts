import { z } from 'zod';

/**
 * Realtime events of the host (issue 29), joined into serverEventSchema in ./events.ts. Here and not in
 * schemas/host.ts: the realtime events import no schema module (see ./line-extras.ts).
 */
export const hostEventSchemas = () =>
  [
    /** A poll's votes changed (or a poll opened): each client reads its own view of the counts. */
    z.object({ type: z.literal('host.poll'), mixerId: z.string(), pollId: z.string() }),
    /** A private nudge for this member only (sent to `user:<id>`), or its end (sent, dismissed). */
    z.object({ type: z.literal('host.nudge'), mixerId: z.string() }),
  ] as const;
