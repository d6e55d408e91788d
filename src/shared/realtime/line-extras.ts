import { z } from 'zod';

/**
 * The fields replies, reactions, edit and unsend add to a chat line (issue 29), in both message
 * shapes of events.ts. Here, beside the events, and not in schemas/chat.ts: the realtime events
 * import no schema module, so the member pages' shared-code chunk never imports the schemas chunk
 * that imports it (a chunk cycle leaves one side undefined when evaluated; decision 029).
 */
/** The schemas of the fields replies, reactions, edit and unsend add; made with the events' (./events.ts). */
export function lineExtrasSchemas() {
  /**
   * The quote a reply carries: `body` null means the original is unsent or hidden from you (show
   * none of it). A shown quote also says who wrote the original and its safety flag, so the
   * reader's app folds the quote wherever it folds the line itself (a line I hid, a member I muted,
   * a line sent after "Are you sure?", one of my hidden words).
   */
  const replyQuote = z.object({
    id: z.string(),
    senderName: z.string().nullable(),
    body: z.string().nullable(),
    senderId: z.string().nullable().optional(),
    flag: z.string().nullable().optional(),
  });
  /** One reaction on a line and who chose it (only people the viewer may see). */
  const reactionGroup = z.object({
    emoji: z.string(),
    by: z.array(z.object({ id: z.string(), firstName: z.string() })),
  });
  return {
    replyQuote,
    reactionGroup,
    /** The fields both message shapes gain; optional so older producers (system lines) stay valid. */
    shape: {
      replyTo: replyQuote.nullable().optional(),
      reactions: z.array(reactionGroup).optional(),
      editedAt: z.string().nullable().optional(),
      unsentAt: z.string().nullable().optional(),
      clientKey: z.string().nullable().optional(),
    },
  };
}
type LineExtrasSchemas = ReturnType<typeof lineExtrasSchemas>;
export type ReplyQuote = z.infer<LineExtrasSchemas['replyQuote']>;
export type ReactionGroup = z.infer<LineExtrasSchemas['reactionGroup']>;
