// zod/mini like the auth schemas: the login page imports the two-factor schema, and it must
// stay inside the initial-JS budget (DESIGN §7). The server validates with these same schemas.
import { z } from 'zod/mini';
import { PASSWORD_MAX } from '../constants';
import { emailSchema, passwordSchema } from './auth';
import './zod-defaults';

/** Who can open my full profile (Settings → Privacy). */
export const PROFILE_VISIBILITY = ['shared_mixer', 'all'] as const;
export type ProfileVisibility = (typeof PROFILE_VISIBILITY)[number];

/**
 * The member's choices kept in `profiles.preferences` (jsonb). An absent key means its
 * default: every mail on, profile visible to members who shared a mixer with me. Other
 * modules read these keys when they send mail.
 */
export interface Preferences {
  notifyMatch: boolean;
  notifyMessage: boolean;
  notifyMixerSoon: boolean;
  /** Mail when the formation job invites me to a mixer (issue 14); the in-app notice always shows. */
  notifyInvitations: boolean;
  /** Mail when a mixer I was in ends, with the "Who did you click with?" prompt (issue 14). */
  notifyAfterMixer: boolean;
  /** Mail with the outcome of a report I made (issue 30); the in-app notice always shows. */
  notifyReports: boolean;
  profileVisibility: ProfileVisibility;
  /** Place me only with verified members: For you and invitations honour it (issue 21). */
  onlyVerified: boolean;
}

/** The stored jsonb (any shape, possibly written by an older version) → complete preferences. */
export function readPreferences(raw: unknown): Preferences {
  const p = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  return {
    notifyMatch: p.notifyMatch !== false,
    notifyMessage: p.notifyMessage !== false,
    notifyMixerSoon: p.notifyMixerSoon !== false,
    notifyInvitations: p.notifyInvitations !== false,
    notifyAfterMixer: p.notifyAfterMixer !== false,
    notifyReports: p.notifyReports !== false,
    profileVisibility: p.profileVisibility === 'all' ? 'all' : 'shared_mixer',
    onlyVerified: p.onlyVerified === true,
  };
}

/** What GET /api/settings returns. */
export interface SettingsView {
  email: string;
  emailVerified: boolean;
  twoFactorEnabled: boolean;
  shareCityRegion: boolean;
  preferences: Preferences;
}

const flag = z.boolean({ error: 'Please choose on or off' });

/** PATCH /api/settings: any subset of the privacy and notification choices; nothing else. */
export const updateSettingsSchema = z
  .strictObject(
    {
      shareCityRegion: z.optional(flag),
      profileVisibility: z.optional(z.enum(PROFILE_VISIBILITY, { error: 'Please choose who can see your profile' })),
      notifyMatch: z.optional(flag),
      notifyMessage: z.optional(flag),
      notifyMixerSoon: z.optional(flag),
      notifyInvitations: z.optional(flag),
      notifyAfterMixer: z.optional(flag),
      notifyReports: z.optional(flag),
      onlyVerified: z.optional(flag),
    },
    { error: 'Only privacy and notification settings can be changed here' },
  )
  .check(z.refine((v) => Object.keys(v).length > 0, { message: 'Nothing to change' }));
export type UpdateSettingsInput = z.input<typeof updateSettingsSchema>;

export const SETTINGS_MESSAGES = {
  currentPasswordRequired: 'Please enter your current password',
  currentPasswordWrong: 'Your current password is not right',
  samePassword: 'Please choose a password different from your current one',
  passwordsDiffer: 'The passwords do not match',
  sameEmail: 'That is already your email address',
  codeRequired: 'Please enter the 6-digit code from your authenticator app',
  codeWrong: "That code didn't work. Check your authenticator app and try again.",
  backupCodeRequired: 'Please enter one of your backup codes',
  backupCodeWrong: "That backup code didn't work. Each code works once.",
  twoFactorExpired: 'Your sign-in took too long. Please log in again.',
  deleteConfirm: 'Please type DELETE to confirm',
  reauthRequired: 'For your security, please enter your password again.',
} as const;

const currentPassword = z
  .string({ error: SETTINGS_MESSAGES.currentPasswordRequired })
  .check(
    z.minLength(1, SETTINGS_MESSAGES.currentPasswordRequired),
    z.maxLength(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`),
  );

/** Settings → Security → Change password. The new password follows the sign-up rules. */
export const changePasswordSchema = z
  .object({ currentPassword, newPassword: passwordSchema })
  .check(z.refine((v) => v.currentPassword !== v.newPassword, { message: SETTINGS_MESSAGES.samePassword, path: ['newPassword'] }));

export const changePasswordFormSchema = z.object({ currentPassword, newPassword: passwordSchema, confirm: z.string() }).check(
  z.refine((v) => v.currentPassword !== v.newPassword, { message: SETTINGS_MESSAGES.samePassword, path: ['newPassword'] }),
  z.refine((v) => v.newPassword === v.confirm, { message: SETTINGS_MESSAGES.passwordsDiffer, path: ['confirm'] }),
);

/** Settings → Security → Change email: the new address and the current password. */
export const changeEmailSchema = z.object({ newEmail: emailSchema, password: currentPassword });

/** Re-entering the password (turning two-step verification on or off, new backup codes). */
export const confirmPasswordSchema = z.object({ password: currentPassword });

/** A 6-digit authenticator code; spaces are ignored. */
export const totpCodeSchema = z.pipe(
  z.pipe(
    z.string({ error: SETTINGS_MESSAGES.codeRequired }).check(z.maxLength(20, SETTINGS_MESSAGES.codeRequired)),
    z.transform((v: string) => v.replace(/\s+/g, '')),
  ),
  z.string().check(z.regex(/^\d{6}$/, SETTINGS_MESSAGES.codeRequired)),
);

/** A backup code as better-auth makes them ("abcde-12345"); case matters. */
export const backupCodeSchema = z
  .string({ error: SETTINGS_MESSAGES.backupCodeRequired })
  .check(z.trim(), z.minLength(1, SETTINGS_MESSAGES.backupCodeRequired), z.maxLength(40, SETTINGS_MESSAGES.backupCodeWrong));

export const verifyTotpSchema = z.object({ code: totpCodeSchema });

/** POST /api/auth/two-factor: the second step of signing in. */
export const twoFactorLoginSchema = z.discriminatedUnion('method', [
  z.object({ method: z.literal('totp'), code: totpCodeSchema, trustDevice: z.optional(z.boolean()) }),
  z.object({ method: z.literal('backup'), code: backupCodeSchema, trustDevice: z.optional(z.boolean()) }),
]);
export type TwoFactorLoginInput = z.input<typeof twoFactorLoginSchema>;

/** One signed-in device in Settings → Security. */
export interface SessionView {
  id: string;
  device: string;
  ipAddress: string | null;
  createdAt: string;
  lastActiveAt: string;
  current: boolean;
}

/** The enrolment answer: the otpauth URI (for the QR code), its secret for typing in, and backup codes. */
export interface TwoFactorEnrolment {
  totpURI: string;
  secret: string;
  backupCodes: string[];
}

export const DELETE_CONFIRMATION_WORD = 'DELETE';
