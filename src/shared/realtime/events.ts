import { z } from 'zod';

/**
 * Typed WebSocket messages (DESIGN §3), parsed on both ends. Rooms: `user:{id}` (joined
 * automatically), `mixer:{id}` and `conversation:{matchId}` (joined on request, if allowed).
 */
export const roomSchema = z.string().regex(/^(user|mixer|conversation):[A-Za-z0-9-]{1,64}$/, 'Unknown room');
export type Room = z.infer<typeof roomSchema>;

/** `newMatches`: matches without a message yet (the Matches nav badge), added by the matches issue. */
export const COUNTER_KEYS = [
  'unreadMessages',
  'matches',
  'activeMixers',
  'mixersJoined',
  'messagesSent',
  'profileViews',
  'newMatches',
] as const;
export type CounterKey = (typeof COUNTER_KEYS)[number];

export const chatMessageSchema = z.object({
  id: z.string(),
  mixerId: z.string(),
  kind: z.enum(['member', 'icebreaker', 'system']),
  body: z.string(),
  createdAt: z.string(),
  sender: z.object({ id: z.string(), firstName: z.string(), avatarUrl: z.string().nullable() }).nullable(),
  /** Reported by two members of the room: "Hidden while we check" (issue 30); its body is not sent. */
  hidden: z.boolean().optional(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const directMessageSchema = z.object({
  id: z.string(),
  matchId: z.string(),
  senderId: z.string(),
  body: z.string(),
  isRead: z.boolean(),
  createdAt: z.string(),
});
export type DirectMessage = z.infer<typeof directMessageSchema>;

export const serverEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), userId: z.string() }),
  z.object({ type: z.literal('pong') }),
  z.object({ type: z.literal('subscribed'), room: roomSchema }),
  z.object({ type: z.literal('error'), message: z.string(), room: roomSchema.optional() }),
  /** Adjusts a Home counter (spec §7 realtime: +1 / -1, never below 0). */
  z.object({ type: z.literal('counter'), key: z.enum(COUNTER_KEYS), delta: z.number().int() }),
  z.object({ type: z.literal('mixer.message'), message: chatMessageSchema }),
  z.object({ type: z.literal('mixer.updated'), mixerId: z.string() }),
  /** Moderation of one line (issue 30): hidden pending review, visible again, or removed. */
  z.object({
    type: z.literal('mixer.line'),
    mixerId: z.string(),
    messageId: z.string(),
    state: z.enum(['hidden', 'visible', 'removed']),
  }),
  z.object({ type: z.literal('dm.removed'), matchId: z.string(), messageId: z.string() }),
  z.object({ type: z.literal('match.created'), matchId: z.string(), otherName: z.string() }),
  z.object({ type: z.literal('match.ended'), matchId: z.string() }),
  z.object({ type: z.literal('dm.message'), message: directMessageSchema }),
  z.object({ type: z.literal('dm.read'), matchId: z.string(), readerId: z.string() }),
  z.object({
    type: z.literal('notice'),
    title: z.string(),
    description: z.string(),
    /** Where the notice leads: a path inside the app, shown as the toast's action. */
    link: z.object({ label: z.string(), href: z.string().startsWith('/') }).optional(),
  }),
  /** A chat line sent over the socket was committed (the same answer as the HTTP POST's 201). */
  z.object({ type: z.literal('sent'), ref: z.string(), message: chatMessageSchema }),
  /** A chat line sent over the socket was not accepted: the code and message the HTTP POST would answer. */
  z.object({ type: z.literal('send-failed'), ref: z.string(), code: z.string(), message: z.string(), retryAfterS: z.number().optional() }),
]);
export type ServerEvent = z.infer<typeof serverEventSchema>;

export const clientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ping') }),
  z.object({ type: z.literal('subscribe'), room: roomSchema }),
  z.object({ type: z.literal('unsubscribe'), room: roomSchema }),
  /**
   * A chat line for a mixer room, sent over the socket instead of POST /api/mixers/:id/messages
   * (same rules, same limit); answered with `sent` or `send-failed` carrying the same `ref`.
   */
  z.object({ type: z.literal('send'), room: roomSchema, body: z.string(), ref: z.string().min(1).max(64) }),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

/** A frame's JSON checked against `schema`, or null when it is not JSON or not that shape. */
function parseFrame<T>(schema: z.ZodType<T>, raw: string): T | null {
  try {
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export const parseServerEvent = (raw: string): ServerEvent | null => parseFrame(serverEventSchema, raw);
export const parseClientMessage = (raw: string): ClientMessage | null => parseFrame(clientMessageSchema, raw);
