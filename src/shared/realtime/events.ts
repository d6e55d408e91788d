import { z } from 'zod';
import { hostEventSchemas } from './host-events';
import { lineExtrasSchemas } from './line-extras';
import { liveRoomSchemas, MAX_MENTIONS } from './live-room';
import { SAFETY_FLAGS } from '../safety/flags';
import { ERROR_STATUS, type ErrorCode } from '../errors';

/** `newMatches`: matches without a message yet (the Matches nav badge), added by the matches issue. */
export const COUNTER_KEYS = [
  'unreadMessages',
  'matches',
  'activeMixers',
  'mixersJoined',
  'messagesSent',
  'profileViews',
  'newMatches',
  /** Unread mentions of me across my mixers (issue 29): the Mixers nav badge. */
  'mixerMentions',
] as const;
export type CounterKey = (typeof COUNTER_KEYS)[number];

/**
 * Typed WebSocket messages (DESIGN §3), parsed on both ends. Rooms: `user:{id}` (joined
 * automatically), `mixer:{id}` and `conversation:{matchId}` (joined on request, if allowed).
 *
 * Made on first use, not when the module loads: making them was a third of the time evaluating the
 * member pages' shared code took (~7 of 21 ms unthrottled, four times that on Lighthouse's phone),
 * and a member page is taken over before its socket has said anything (issue 33, decision 029).
 */
function eventSchemas() {
  const lineExtrasShape = lineExtrasSchemas().shape;
  const liveRoom = liveRoomSchemas();
  const roomSchema = z.string().regex(/^(user|mixer|conversation):[A-Za-z0-9-]{1,64}$/, 'Unknown room');

  /** The new text (empty once unsent) of an edited or unsent line, the same in both chats. */
  const lineChangedShape = {
    messageId: z.string(),
    body: z.string(),
    editedAt: z.string().nullable(),
    unsentAt: z.string().nullable(),
    /** The detectors' verdict on the new text (issue 30). */
    flag: z.enum(SAFETY_FLAGS).nullable().optional(),
  };
  const reactionShape = {
    messageId: z.string(),
    user: z.object({ id: z.string(), firstName: z.string() }),
    emoji: z.string().nullable(),
  };

  const chatMessageSchema = z.object({
    id: z.string(),
    mixerId: z.string(),
    kind: z.enum(['member', 'icebreaker', 'system']),
    body: z.string(),
    createdAt: z.string(),
    /** The detectors' verdict stored with the line (issue 30): receivers see an abuse line collapsed. */
    flag: z.enum(SAFETY_FLAGS).nullable().optional(),
    sender: z.object({ id: z.string(), firstName: z.string(), avatarUrl: z.string().nullable() }).nullable(),
    ...lineExtrasShape,
    /** Members mentioned in the line (issue 29; the body carries `@First` for each). */
    mentions: z.array(z.string()).optional(),
    /** Reported by two members of the room: "Hidden while we check" (issue 30); its body is not sent. */
    hidden: z.boolean().optional(),
  });

  const directMessageSchema = z.object({
    id: z.string(),
    matchId: z.string(),
    senderId: z.string(),
    body: z.string(),
    /** The detectors' verdict (issue 30): a contact note, a scam warning or a collapsed abuse line for the receiver. */
    flag: z.enum(SAFETY_FLAGS).nullable().optional(),
    isRead: z.boolean(),
    createdAt: z.string(),
    ...lineExtrasShape,
  });

  const serverEventSchema = z.discriminatedUnion('type', [
    z.object({ type: z.literal('ready'), userId: z.string() }),
    z.object({ type: z.literal('pong') }),
    z.object({ type: z.literal('subscribed'), room: roomSchema }),
    /**
     * A socket message refused: `code` is what the HTTP API answers for the same refusal
     * (`validation`, `forbidden`, `rate_limited`…), `room` is set when a subscription was refused.
     */
    z.object({
      type: z.literal('error'),
      code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
      message: z.string(),
      room: roomSchema.optional(),
    }),
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
    /**
     * A line was edited or unsent (issue 29): the new text (empty once unsent) for every view of
     * it, including the quotes of replies to it. Never counts as unread, never a push.
     */
    z.object({ type: z.literal('mixer.line.changed'), mixerId: z.string(), ...lineChangedShape }),
    z.object({ type: z.literal('dm.line.changed'), matchId: z.string(), ...lineChangedShape }),
    /** Someone chose a reaction on a line (`emoji` null: took theirs away). Only to those who may see them. */
    z.object({ type: z.literal('mixer.reaction'), mixerId: z.string(), ...reactionShape }),
    z.object({ type: z.literal('dm.reaction'), matchId: z.string(), ...reactionShape }),
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
    z.object({
      type: z.literal('send-failed'),
      ref: z.string(),
      code: z.string(),
      message: z.string(),
      retryAfterS: z.number().optional(),
    }),
    ...hostEventSchemas(),
    ...liveRoom.events,
  ]);

  const clientMessageSchema = z.discriminatedUnion('type', [
    z.object({ type: z.literal('ping') }),
    z.object({ type: z.literal('subscribe'), room: roomSchema }),
    z.object({ type: z.literal('unsubscribe'), room: roomSchema }),
    /**
     * A chat line for a mixer room, sent over the socket instead of POST /api/mixers/:id/messages
     * (same rules, same limit); answered with `sent` or `send-failed` carrying the same `ref`.
     */
    z.object({
      type: z.literal('send'),
      room: roomSchema,
      body: z.string(),
      ref: z.string().min(1).max(64),
      /** The line's own key (issue 29): a retry with the same key gets the first line back. Checked by the room's handler. */
      clientKey: z.string().max(64).optional(),
      replyToId: z.string().max(64).optional(),
      mentions: z.array(z.string().max(64)).max(MAX_MENTIONS).optional(),
      /** "Send anyway" after Are you sure? (issue 30). */
      confirmed: z.boolean().optional(),
    }),
    ...liveRoom.messages,
  ]);
  return {
    room: roomSchema,
    chatMessage: chatMessageSchema,
    directMessage: directMessageSchema,
    server: serverEventSchema,
    client: clientMessageSchema,
  };
}

type EventSchemas = ReturnType<typeof eventSchemas>;
export type Room = z.infer<EventSchemas['room']>;
export type ChatMessage = z.infer<EventSchemas['chatMessage']>;
export type DirectMessage = z.infer<EventSchemas['directMessage']>;
export type ServerEvent = z.infer<EventSchemas['server']>;
export type ClientMessage = z.infer<EventSchemas['client']>;

let made: EventSchemas | undefined;
const schemas = () => (made ??= eventSchemas());

/** A frame's JSON checked against `schema`, or null when it is not JSON or not that shape. */
function parseFrame<T>(schema: z.ZodType<T>, raw: string): T | null {
  try {
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export const parseServerEvent = (raw: string): ServerEvent | null => parseFrame(schemas().server, raw);
export const parseClientMessage = (raw: string): ClientMessage | null => parseFrame(schemas().client, raw);
