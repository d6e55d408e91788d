import { z } from 'zod';

/**
 * Typing and presence (issue 29): socket-only, never stored. Rooms are `mixer:` and
 * `conversation:` rooms the socket has joined.
 */

export * from './live-limits';

/** The socket events and messages of typing and presence; made with the other events (./events.ts). */
export function liveRoomSchemas() {
  const chatRoomSchema = z.string().regex(/^(mixer|conversation):[A-Za-z0-9-]{1,64}$/, 'Unknown room');
  const events = [
    /** Someone in the room is typing (`typing: true`, repeated while they type) or stopped (sent, cleared). */
    z.object({ type: z.literal('typing'), room: chatRoomSchema, userId: z.string(), typing: z.boolean() }),
    /** Who is in the room right now, sent to a socket once it has joined the room. */
    z.object({ type: z.literal('presence'), room: chatRoomSchema, userIds: z.array(z.string()) }),
    /** A member came into the room (first socket) or left it (last socket closed or lost). */
    z.object({ type: z.literal('presence.changed'), room: chatRoomSchema, userId: z.string(), online: z.boolean() }),
  ] as const;
  const messages = [
    /** I am typing in this room (`false`: I stopped — cleared the box or sent). */
    z.object({ type: z.literal('typing'), room: chatRoomSchema, typing: z.boolean() }),
  ] as const;
  return { events, messages };
}
