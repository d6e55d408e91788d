/**
 * Web Push (issue 20, decision 021): what a device can be told, and how a member sets it up.
 * Settings live per device (push subscription): categories, names and previews, quiet hours.
 */
import { z } from 'zod';

export const PUSH_CATEGORIES = ['mixerSoon', 'invitation', 'match', 'message', 'mention'] as const;
export type PushCategory = (typeof PUSH_CATEGORIES)[number];

/** Settings → Notifications wording, one line per category. */
export const PUSH_CATEGORY_LABELS: Record<PushCategory, { title: string; description: string }> = {
  mixerSoon: { title: 'Mixer starting soon', description: 'A mixer you joined starts in 15 minutes.' },
  invitation: { title: 'Invitations', description: 'A seat is held for you in a new mixer.' },
  match: { title: 'New matches', description: 'Someone you fancied fancies you too.' },
  message: { title: 'New messages', description: "A message in a conversation you aren't reading." },
  mention: { title: 'Mentions', description: "Someone mentions you in a mixer's chat you aren't reading." },
};

export const PUSH_MESSAGES = {
  unavailable: 'Push notifications are not set up on this server.',
  badEndpoint: 'This browser gave an address we cannot send notifications to.',
  notFound: 'That device is not in your list.',
  otherAccount: 'Notifications from this browser are already on for another account. Sign in there and turn them off first.',
  tooMany: 'You have turned notifications on for a lot of devices. Remove one you no longer use first.',
  quietHours: 'Choose both a start and an end for quiet hours, or neither.',
  timeZone: 'Unknown time zone.',
} as const;

/** At most this many devices per member. */
export const MAX_PUSH_DEVICES = 20;

const base64url = (max: number) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, 'Invalid key')
    .max(max);
const minuteOfDay = z.number().int().min(0).max(1439);

export const isTimeZone = (tz: string) => {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};
const timeZoneSchema = z.string().max(64).refine(isTimeZone, PUSH_MESSAGES.timeZone);

export const pushSettingsSchema = z
  .object({
    categories: z.partialRecord(z.enum(PUSH_CATEGORIES), z.boolean()).optional(),
    showPreviews: z.boolean().optional(),
    quietStart: minuteOfDay.nullable().optional(),
    quietEnd: minuteOfDay.nullable().optional(),
    timeZone: timeZoneSchema.optional(),
  })
  .strict()
  .refine((v) => (v.quietStart === undefined) === (v.quietEnd === undefined) && (v.quietStart === null) === (v.quietEnd === null), {
    message: PUSH_MESSAGES.quietHours,
    path: ['quietEnd'],
  });
export type PushSettingsInput = z.infer<typeof pushSettingsSchema>;

/** What the browser's PushSubscription.toJSON() gives, plus the device's time zone. */
export const pushSubscribeSchema = z
  .object({
    endpoint: z.url({ protocol: /^https?$/ }).max(2048),
    keys: z.object({ p256dh: base64url(200), auth: base64url(100) }),
    timeZone: timeZoneSchema.optional(),
  })
  .strict();
export type PushSubscribeInput = z.infer<typeof pushSubscribeSchema>;

export const pushUnsubscribeSchema = z
  .object({
    endpoint: z
      .string()
      .max(2048)
      .regex(/^https?:\/\/[!-~]+$/, PUSH_MESSAGES.badEndpoint),
  })
  .strict();

export interface PushDevice {
  id: string;
  label: string;
  createdAt: string;
  lastSentAt: string | null;
  categories: Record<PushCategory, boolean>;
  showPreviews: boolean;
  quietStart: number | null;
  quietEnd: number | null;
  timeZone: string;
  /** The endpoint belongs to the browser asking (it sent it as ?endpoint=…). */
  current: boolean;
}

/** What the service worker receives (the encrypted payload). */
export interface PushPayload {
  title: string;
  body: string;
  /** Where a click lands (a path of this site). */
  url: string;
  /** Notifications with one tag replace each other (one per conversation). */
  tag: string;
}
