// zod/mini keeps the sign-in and registration pages inside the initial-JS budget (DESIGN §7);
// the server validates with these same schemas.
import { z } from 'zod/mini';
import { memberTextChecks } from './text';
import { NAME_NEEDS_LETTER, nameHasLetter } from '../profile-texts';
import { FULL_NAME_MAX, PASSWORD_MAX, PASSWORD_MIN } from '../constants';
import './zod-defaults';

export const emailSchema = z.pipe(
  z
    .string({ error: 'Please enter your email address' })
    .check(
      z.trim(),
      z.toLowerCase(),
      z.minLength(1, 'Please enter your email address'),
      z.maxLength(254, 'That email address is too long'),
    ),
  z.email('Please enter a valid email address'),
);

export const passwordSchema = z
  .string({ error: 'Please enter a password' })
  .check(
    z.minLength(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`),
    z.maxLength(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`),
  );

export const fullNameSchema = z
  .string({ error: 'Please enter your name' })
  .check(
    ...memberTextChecks(),
    z.trim(),
    z.minLength(1, 'Please enter your name'),
    z.maxLength(FULL_NAME_MAX, 'Name is too long'),
    z.refine(nameHasLetter, NAME_NEEDS_LETTER),
  );

/** Campaign attribution as it arrives in the URL (spec §3). */
export const CAMPAIGN_PARAMS = ['utm_source', 'utm_medium', 'utm_campaign', 'code', 'label'] as const;

const campaignValue = z.string().check(...memberTextChecks(), z.trim(), z.maxLength(100, 'Campaign value is too long'));
export const campaignSchema = z.object({
  utm_source: campaignValue,
  utm_medium: campaignValue,
  utm_campaign: campaignValue,
  campaign_code: campaignValue,
  campaign_label: campaignValue,
});
export type Campaign = z.infer<typeof campaignSchema>;

/**
 * Registration metadata from a query string: when any campaign parameter is present, all
 * five fields are set, each an empty string when missing (spec §3). Otherwise undefined.
 */
export function campaignFromParams(params: URLSearchParams): Campaign | undefined {
  if (!CAMPAIGN_PARAMS.some((p) => params.has(p))) return undefined;
  const get = (k: string) => (params.get(k) ?? '').slice(0, 100);
  return {
    utm_source: get('utm_source'),
    utm_medium: get('utm_medium'),
    utm_campaign: get('utm_campaign'),
    campaign_code: get('code'),
    campaign_label: get('label'),
  };
}

export const registerSchema = z.object({
  fullName: fullNameSchema,
  email: emailSchema,
  password: passwordSchema,
  campaign: z.optional(campaignSchema),
});
export type RegisterInput = z.input<typeof registerSchema>;

/** The login form's fields. */
export const loginFormSchema = z.object({
  email: emailSchema,
  password: z
    .string()
    .check(z.minLength(1, 'Please enter your password'), z.maxLength(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`)),
});

export const loginSchema = z.extend(loginFormSchema, {
  /** The token of a verification link: signing in with it confirms the address (docs/decisions/006). */
  verifyToken: z.optional(z.string().check(z.maxLength(4096))),
});

export const forgotPasswordSchema = z.object({ email: emailSchema });

export const resendSchema = z.object({ email: emailSchema });

export const resetPasswordSchema = z.object({
  token: z.string().check(z.maxLength(500, 'This reset link is invalid.'), z.regex(/^[\w.~-]+$/, 'This reset link is invalid.')),
  password: passwordSchema,
});

export const resetPasswordFormSchema = z
  .object({ password: passwordSchema, confirm: z.string() })
  .check(z.refine((v) => v.password === v.confirm, { message: 'The passwords do not match', path: ['confirm'] }));

/** Spec §5: auth calls need an email (or phone) and a password. */
export const MISSING_CREDENTIALS = 'You must provide either an email or phone number and a password';
export const COMMON_PASSWORD = 'That password is too common. Please choose one that is harder to guess.';
export const OWN_WORDS_PASSWORD =
  "That password is easy to guess from your name or email address. Please choose one that doesn't use them.";
/** The message for each reason a password is refused (shared/password-strength.ts). */
export const WEAK_PASSWORD_MESSAGES = { common: COMMON_PASSWORD, 'own-words': OWN_WORDS_PASSWORD } as const;
