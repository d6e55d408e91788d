// zod/mini, small like the other member schemas.
import { z } from 'zod/mini';
import { AVAILABILITY_MESSAGES, SLOT_KEYS, type SlotKey, TOPIC_ASKS_MAX } from '../availability';
import './zod-defaults';

const slotKey = z.enum(SLOT_KEYS as unknown as [SlotKey, ...SlotKey[]], { error: AVAILABILITY_MESSAGES.slotUnknown });
const topicName = z
  .string({ error: AVAILABILITY_MESSAGES.askUnknown })
  .check(z.trim(), z.minLength(1, AVAILABILITY_MESSAGES.askUnknown), z.maxLength(60, AVAILABILITY_MESSAGES.askUnknown));

/** PUT /api/profile/availability: either or both lists, each replacing what was there. Duplicates are dropped. */
export const availabilitySchema = z
  .strictObject({
    availability: z.optional(z.array(slotKey).check(z.maxLength(SLOT_KEYS.length, AVAILABILITY_MESSAGES.slotUnknown))),
    topicAsks: z.optional(z.array(topicName).check(z.maxLength(TOPIC_ASKS_MAX, AVAILABILITY_MESSAGES.asksTooMany))),
  })
  .check(z.refine((v) => v.availability !== undefined || v.topicAsks !== undefined, { message: AVAILABILITY_MESSAGES.nothingToChange }));
export type AvailabilityInput = z.output<typeof availabilitySchema>;
