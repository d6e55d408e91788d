import { z } from 'zod';
import { memberIdSchema } from './matches';
import './zod-defaults';

/**
 * Hide a line for yourself, mute a member in a mixer for yourself (issue 30): private to the
 * member who does it, undoable, stored on the server.
 */
export const LINE_KINDS = ['mixer', 'dm'] as const;
export type LineKind = (typeof LINE_KINDS)[number];

export const LINE_PRIVACY_MESSAGES = {
  lineNotFound: "We couldn't find that line.",
  mixerNotFound: "We couldn't find that mixer.",
  memberNotInMixer: "That member isn't in this mixer.",
  muteSelf: "You can't mute yourself.",
  chooseRoom: 'Choose a mixer or a conversation.',
} as const;

/** `PUT|DELETE /api/hidden-lines/:kind/:messageId` */
export const hiddenLineParamSchema = z.object({
  kind: z.enum(LINE_KINDS, { error: 'Unknown kind of line' }),
  messageId: z.guid({ error: LINE_PRIVACY_MESSAGES.lineNotFound }),
});

/** `PUT|DELETE /api/mixers/:id/mutes/:userId` */
export const muteParamSchema = z.object({
  id: z.guid({ error: LINE_PRIVACY_MESSAGES.mixerNotFound }),
  userId: memberIdSchema,
});

/** `GET /api/line-privacy?mixerId=…` or `?matchId=…`: exactly one of them. */
export const linePrivacyQuerySchema = z
  .object({
    mixerId: z.guid({ error: LINE_PRIVACY_MESSAGES.mixerNotFound }).optional(),
    matchId: z.guid({ error: 'Unknown conversation' }).optional(),
  })
  .refine((q) => (q.mixerId ? 1 : 0) + (q.matchId ? 1 : 0) === 1, { error: LINE_PRIVACY_MESSAGES.chooseRoom });

/** What a member hid in one mixer or conversation, and whom they muted there (mixers only). */
export interface LinePrivacy {
  hiddenLineIds: string[];
  mutedMemberIds: string[];
}
