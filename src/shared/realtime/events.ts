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
]);
export type ServerEvent = z.infer<typeof serverEventSchema>;

export const clientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ping') }),
  z.object({ type: z.literal('subscribe'), room: roomSchema }),
  z.object({ type: z.literal('unsubscribe'), room: roomSchema }),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

export function parseServerEvent(raw: string): ServerEvent | null {
  try {
    const parsed = serverEventSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function parseClientMessage(raw: string): ClientMessage | null {
  try {
    const parsed = clientMessageSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
