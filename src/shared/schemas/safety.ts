import { z } from 'zod';
import { memberTextChecks } from './text';
import { memberIdSchema, mixerIdSchema } from './matches';
import { REPORT_DETAILS_MAX, REPORT_REASONS } from '../safety-texts';
import './zod-defaults';

export * from '../safety-texts';

export const blockSchema = z.object({ userId: memberIdSchema });

export const reportSchema = z.object({
  userId: memberIdSchema,
  mixerId: mixerIdSchema.nullish(),
  reason: z.enum(REPORT_REASONS, { error: 'Please choose a reason' }),
  details: z
    .string({ error: 'Please describe what happened' })
    .check(...memberTextChecks('multiline'))
    .trim()
    .max(REPORT_DETAILS_MAX, `Please keep it under ${REPORT_DETAILS_MAX} characters`)
    .default(''),
});
export type ReportInput = z.input<typeof reportSchema>;

/** A line of a mixer (`roomId` = mixer id) or of a private chat (`roomId` = match id). */
export const reportLineSchema = z.object({
  kind: z.enum(['mixer', 'direct'], { error: 'Choose a mixer or a private chat' }),
  roomId: z.guid({ error: "We couldn't find that conversation." }),
  messageId: z.guid({ error: "We couldn't find that message. It may have been removed." }),
  reason: reportSchema.shape.reason,
  details: reportSchema.shape.details,
});
export type ReportLineInput = z.input<typeof reportLineSchema>;
