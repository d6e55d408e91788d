import { z } from 'zod';
import { memberTextChecks } from './text';
import { emailSchema } from './auth';
import './zod-defaults';

/** What a Contact Support message can be about (the form's select, the server's check). */
export const CONTACT_TOPICS = ['Account & sign-in', 'Safety or a member', 'Mixers', 'Privacy & my data', 'Something else'] as const;
export type ContactTopic = (typeof CONTACT_TOPICS)[number];

export const CONTACT_NAME_MAX = 80;
export const CONTACT_MESSAGE_MIN = 10;
export const CONTACT_MESSAGE_MAX = 2000;

export const CONTACT_RATE_LIMITED = "You've sent us several messages in the last hour. Please wait a while before sending another.";

export const contactSchema = z.object({
  name: z
    .string({ error: 'Please enter your name' })
    .check(...memberTextChecks())
    .trim()
    .min(1, 'Please enter your name')
    .max(CONTACT_NAME_MAX, `Please keep your name under ${CONTACT_NAME_MAX} characters`),
  email: emailSchema,
  topic: z.enum(CONTACT_TOPICS, { error: 'Please choose what your message is about' }),
  message: z
    .string({ error: 'Please write your message' })
    .check(...memberTextChecks('multiline'))
    .trim()
    .min(1, 'Please write your message')
    .min(CONTACT_MESSAGE_MIN, `Please tell us a little more (at least ${CONTACT_MESSAGE_MIN} characters)`)
    .max(CONTACT_MESSAGE_MAX, `Please keep your message under ${CONTACT_MESSAGE_MAX} characters`),
});

export type ContactInput = z.input<typeof contactSchema>;
export type ContactMessage = z.output<typeof contactSchema>;
