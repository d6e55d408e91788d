// The build without Kysely (better-auth's own choice for an adapter such as drizzle's): a third less to load at start.
import { betterAuth } from 'better-auth/minimal';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { admin } from 'better-auth/plugins/admin';
import { twoFactor } from 'better-auth/plugins/two-factor';
import type { AppDeps } from '../deps';
import * as schema from '../db/schema';
import { composeMail } from '../infra/mail/template';
import { and, eq, gt } from 'drizzle-orm';
import type { Db } from '../db/client';
import { HOUR } from '../http/rate-limiter';
import { CLIENT_IP_HEADER } from './session';
import type { Logger } from 'pino';
import { safeError, scrubText } from '../infra/log';
import { passwordHasher } from './password-hashing';

const EXISTING_SIGNUP_SUBJECT = 'Someone tried to sign up with your address';

/** Whether a mail with this subject went to the address within the last `withinMs` (shared by every instance). */
async function mailedRecently(db: Db, to: string, subject: string, withinMs: number): Promise<boolean> {
  const [row] = await db
    .select({ id: schema.mailOutbox.id })
    .from(schema.mailOutbox)
    .where(
      and(
        eq(schema.mailOutbox.to, to),
        eq(schema.mailOutbox.subject, subject),
        gt(schema.mailOutbox.createdAt, new Date(Date.now() - withinMs)),
      ),
    )
    .limit(1);
  return Boolean(row);
}

export const SESSION_TTL_S = 60 * 60 * 24 * 14;
/** A session is extended when used after this long: it expires after 14 days of inactivity. */
export const SESSION_UPDATE_AGE_S = 60 * 60 * 24;

export function createAuth({ config, database, mailer, log }: Pick<AppDeps, 'config' | 'database' | 'mailer'> & { log?: Logger }) {
  const site = config.publicUrl;
  return betterAuth({
    appName: 'Fancy',
    baseURL: site,
    basePath: '/api/auth',
    secret: config.authSecret,
    trustedOrigins: [site],
    database: drizzleAdapter(database.db, { provider: 'pg', schema, transaction: database.kind === 'postgres' }),
    rateLimit: { enabled: false },
    // better-auth's own warnings go to our logger, through the same scrubbing as every error line.
    logger: log
      ? { level: 'warn', log: (level, message, ...args) => log[level]({ details: args.map((a) => safeError(a)) }, scrubText(message)) }
      : { disabled: true },
    session: { expiresIn: SESSION_TTL_S, updateAge: SESSION_UPDATE_AGE_S },
    advanced: {
      useSecureCookies: site.startsWith('https://'),
      // Set by toFetchHeaders from Fastify's req.ip (TRUST_PROXY), never taken from the client.
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      // Its mails (verification, reset, "someone tried to sign up") are sent after the response,
      // so answers take as long whether or not the address has an account.
      backgroundTasks: { handler: (work) => mailer.background(work) },
    },
    user: {
      additionalFields: {
        utmSource: { type: 'string', required: false },
        utmMedium: { type: 'string', required: false },
        utmCampaign: { type: 'string', required: false },
        campaignCode: { type: 'string', required: false },
        campaignLabel: { type: 'string', required: false },
        onboardingComplete: { type: 'boolean', required: false, defaultValue: false, input: false },
      },
      // Settings → Security: a verification link goes to the new address (sendVerificationEmail
      // below), applied by the app's GET /api/auth/verify-email only for the account that asked;
      // the old address is told by POST /api/me/email (modules/settings).
      changeEmail: { enabled: true },
    },
    emailAndPassword: {
      enabled: true,
      // Signed-in but unverified members see the verification screen (spec gate step 3).
      requireEmailVerification: false,
      // No session on sign-up, and an existing address gets the same answer (no enumeration).
      autoSignIn: false,
      password: passwordHasher(config.passwordHashing ?? 'standard'),
      minPasswordLength: 8,
      maxPasswordLength: 128,
      resetPasswordTokenExpiresIn: 60 * 60,
      revokeSessionsOnPasswordReset: true,
      customSyntheticUser: ({ coreFields, additionalFields, id }) => ({
        ...coreFields,
        role: 'user',
        banned: false,
        banReason: null,
        banExpires: null,
        onboardingComplete: false,
        ...additionalFields,
        id,
      }),
      // The account may be unverified, its name typed by whoever signed up: mails to an address
      // never carry a name or other text someone else chose (docs/decisions/006).
      async onExistingUserSignUp({ user }) {
        if (await mailedRecently(database.db, user.email, EXISTING_SIGNUP_SUBJECT, HOUR)) return;
        await mailer.sendMail(
          composeMail(user.email, {
            subject: EXISTING_SIGNUP_SUBJECT,
            greeting: 'Hi there,',
            lines: [
              'Someone (hopefully you) just tried to create a Fancy account with this email address. You already have an account, so nothing was changed.',
              'If that was you, log in instead — or reset your password if you have forgotten it. If it was not you, you can ignore this email.',
            ],
            action: { label: 'Log in to Fancy', url: `${site}/auth/login` },
          }),
        );
      },
      async sendResetPassword({ user, url }) {
        await mailer.sendMail(
          composeMail(user.email, {
            subject: 'Reset your Fancy password',
            greeting: 'Hi there,',
            lines: [
              'We received a request to reset the password of your Fancy account. The link below works once and expires in 1 hour.',
              'If you did not ask for this, you can ignore this email: your password stays the same.',
            ],
            action: { label: 'Choose a new password', url },
          }),
        );
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      expiresIn: 60 * 60 * 24,
      async sendVerificationEmail({ user, url, token }) {
        if (isChangeEmailToken(token)) {
          await mailer.sendMail(
            composeMail(user.email, {
              subject: 'Did you ask to use this address on Fancy?',
              greeting: 'Hi there,',
              lines: [
                'Someone asked to move a Fancy account to this address. Only if it was you, open the link and log in to that account to confirm (valid 24 hours).',
                'Not you? Ignore this email: nothing changes.',
              ],
              action: { label: 'Yes, I asked: confirm', url },
              footer: 'We send this because someone entered this address on Fancy.',
            }),
          );
          return;
        }
        await mailer.sendMail(
          composeMail(user.email, {
            subject: 'Confirm your email for Fancy',
            greeting: 'Hi there,',
            lines: [
              'Welcome to Fancy! Please confirm your email address to finish creating your account: open the link and log in with the password you chose. The link is valid for 24 hours.',
            ],
            action: { label: 'Confirm my email', url },
            footer: 'If you did not sign up for Fancy, you can ignore this email.',
          }),
        );
      },
    },
    databaseHooks: {
      user: {
        create: {
          // ADMIN_EMAILS roles come with a confirmed address only (auth/verification.ts), never at sign-up.
          // No query here: on PostgreSQL this runs inside better-auth's transaction, and a query on the
          // pool would wait for a second connection while holding one (twenty sign-ups at once hung the
          // pool). Banned addresses are refused before sign-up starts, in POST /api/auth/register.
          async before(user) {
            return { data: { ...user, role: 'user' } };
          },
          // Every account gets its profile row at once, so the gate's onboarding step applies (spec §2).
          async after(user) {
            await database.db.insert(schema.profiles).values({ id: user.id, fullName: user.name }).onConflictDoNothing();
          },
        },
      },
    },
    plugins: [
      // Settings → Security: authenticator-app codes (TOTP) with backup codes, asked at sign-in.
      twoFactor({ issuer: 'Fancy' }),
      admin({
        defaultRole: 'user',
        adminRoles: ['admin'],
        bannedUserMessage: 'Your account has been suspended. Please contact support if you think this is a mistake.',
      }),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;

/** better-auth's verification tokens are JWTs; an e-mail change carries `requestType` in its payload. */
function isChangeEmailToken(token: string): boolean {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { requestType?: string };
    return payload.requestType === 'change-email-verification';
  } catch {
    return false;
  }
}
