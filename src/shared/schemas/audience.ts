import { z } from 'zod';
import {
  AUDIENCE_AGE_MAX,
  AUDIENCE_AGE_MIN,
  AUDIENCE_MESSAGES,
  AUDIENCE_REGIONS,
  PLAN_SEATS_MAX,
  PLAN_SEATS_MIN,
  planSeats,
  SIDE_SEATS_MIN,
  SIDES,
} from '../audience';
import './zod-defaults';

/** A mixer's audience as admins set it (issue 32); the rules and texts are in `../audience.ts`, without zod (issue 33). */
export const planSideSchema = z.object({ side: z.enum(SIDES), seats: z.number().int().min(SIDE_SEATS_MIN).max(PLAN_SEATS_MAX) });
export const seatPlanSchema = z
  .array(planSideSchema)
  .max(SIDES.length)
  .refine((plan) => new Set(plan.map((s) => s.side)).size === plan.length, AUDIENCE_MESSAGES.planSides)
  .refine(
    (plan) => plan.length === 0 || (planSeats(plan) >= PLAN_SEATS_MIN && planSeats(plan) <= PLAN_SEATS_MAX),
    AUDIENCE_MESSAGES.planSeats,
  );

export const audienceSchema = z
  .object({
    region: z
      .string()
      .nullable()
      .refine((r) => r === null || AUDIENCE_REGIONS.includes(r), AUDIENCE_MESSAGES.region),
    ageMin: z.number().int().min(AUDIENCE_AGE_MIN).max(AUDIENCE_AGE_MAX),
    ageMax: z.number().int().min(AUDIENCE_AGE_MIN).max(AUDIENCE_AGE_MAX),
    seatPlan: seatPlanSchema,
  })
  .refine((a) => a.ageMin <= a.ageMax, { message: AUDIENCE_MESSAGES.ageBand, path: ['ageMax'] });
