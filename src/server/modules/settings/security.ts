import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isAPIError } from 'better-auth/api';
import { SETTINGS_MESSAGES, type TwoFactorEnrolment } from '../../../shared/schemas/settings';
import { assertStrongPassword, memberWords } from '../../auth/passwords';
import { type CurrentSession, forwardCookies, toFetchHeaders } from '../../auth/session';
import { account } from '../../db/schema';
import { AppError } from '../../http/errors';
import { composeMail } from '../../infra/mail/template';
import { keepPushAcrossSessionSwap } from '../push/service';
import { revokeOtherSessions } from './sessions';

const wrongPassword = () =>
  new AppError('validation', SETTINGS_MESSAGES.currentPasswordWrong, {
    currentPassword: SETTINGS_MESSAGES.currentPasswordWrong,
    password: SETTINGS_MESSAGES.currentPasswordWrong,
  });

/** True for the error of a wrong current password (what the password limits count). */
export function isWrongPassword(err: unknown): boolean {
  return err instanceof AppError && err.fields?.password === SETTINGS_MESSAGES.currentPasswordWrong;
}

/** better-auth's "invalid password" (400 INVALID_PASSWORD) → our field error; anything else rethrown. */
function mapAuthError(err: unknown): never {
  if (isAPIError(err)) {
    const body = err.body as { code?: string; message?: string } | undefined;
    if (body?.code === 'INVALID_PASSWORD') throw wrongPassword();
    if (err.statusCode === 401) throw new AppError('unauthenticated', 'Please log in to continue.');
    throw new AppError('bad_request', body?.message || 'Something went wrong. Please try again.');
  }
  throw err;
}

/** Checks the member's current password against their credential account (better-auth's hasher). */
export async function assertPassword(app: FastifyInstance, userId: string, password: string) {
  const [row] = await app.deps.database.db
    .select({ hash: account.password })
    .from(account)
    .where(and(eq(account.userId, userId), eq(account.providerId, 'credential')));
  const ctx = await app.auth.$context;
  if (!row?.hash || !(await ctx.password.verify({ hash: row.hash, password }))) throw wrongPassword();
}

async function notify(app: FastifyInstance, to: string, name: string, subject: string, lines: string[]) {
  const site = app.deps.config.publicUrl;
  await app.deps.mailer.sendMail(
    composeMail(to, {
      subject,
      greeting: `Hi ${name},`,
      lines: [
        ...lines,
        'If this was not you, reset your password straight away and contact support: we will help you secure your account.',
      ],
      action: { label: 'Review your security settings', url: `${site}/settings#security` },
      footer: 'We send this to keep your Fancy account safe.',
    }),
  );
}

/**
 * Change password (current + new): the new one follows the sign-up rules and is not a common
 * password; every other session ends, this device gets a fresh session cookie.
 */
export async function changePassword(
  app: FastifyInstance,
  req: FastifyRequest,
  reply: FastifyReply,
  me: CurrentSession,
  input: { currentPassword: string; newPassword: string },
) {
  await assertStrongPassword(input.newPassword, await memberWords(app.deps.database.db, me.user.id), 'newPassword');
  try {
    // This device gets a new session (and keeps its push notifications); every other one ends.
    const { headers } = await keepPushAcrossSessionSwap(app, me.user.id, me.session.id, () =>
      app.auth.api.changePassword({
        headers: toFetchHeaders(req),
        body: { currentPassword: input.currentPassword, newPassword: input.newPassword, revokeOtherSessions: true },
        returnHeaders: true,
      }),
    );
    forwardCookies(headers, reply);
  } catch (err) {
    mapAuthError(err);
  }
  // Every earlier session is gone, this device's included (it has a new cookie): close their sockets.
  await app.realtime.closeUser(me.user.id, 'password changed');
  await notify(app, me.user.email, me.user.name, 'Your Fancy password was changed', [
    'The password of your Fancy account was just changed, and every other device was signed out.',
  ]);
}

/**
 * Change email: re-enter the password; better-auth mails a verification link to the new
 * address (the address changes when it is opened in a browser signed in to this account:
 * auth/routes.ts), every other session ends and the old address is told. An address
 * that belongs to another account gets the same answer and no mail (no enumeration).
 */
export async function changeEmail(
  app: FastifyInstance,
  req: FastifyRequest,
  me: CurrentSession,
  input: { newEmail: string; password: string },
) {
  if (input.newEmail === me.user.email.toLowerCase()) {
    throw new AppError('validation', SETTINGS_MESSAGES.sameEmail, { newEmail: SETTINGS_MESSAGES.sameEmail });
  }
  await assertPassword(app, me.user.id, input.password);
  try {
    await app.auth.api.changeEmail({
      headers: toFetchHeaders(req),
      body: { newEmail: input.newEmail, callbackURL: '/settings?email=confirmed' },
    });
  } catch (err) {
    mapAuthError(err);
  }
  // Like a password change: every other device is signed out (whether or not the address was free).
  await revokeOtherSessions(app, req, me.user.id, me.session.id);
  await notify(app, me.user.email, me.user.name, 'A change of email address was requested', [
    `Someone signed in to your Fancy account asked to change its email address to ${input.newEmail}. The change happens only when the link we sent to that address is opened; until then we keep using this one.`,
  ]);
}

/** Step 1 of two-step verification: password → secret (QR code and text) and 10 backup codes; not on yet. */
export async function startTwoFactor(app: FastifyInstance, req: FastifyRequest, password: string): Promise<TwoFactorEnrolment> {
  try {
    const res = await app.auth.api.enableTwoFactor({ headers: toFetchHeaders(req), body: { password, issuer: 'Fancy' } });
    const { totpURI, backupCodes } = res as { totpURI: string; backupCodes: string[] };
    const secret = new URL(totpURI).searchParams.get('secret') ?? '';
    return { totpURI, secret, backupCodes };
  } catch (err) {
    if (isAPIError(err) && (err.body as { code?: string } | undefined)?.code === 'TOTP_ALREADY_ENABLED') {
      throw new AppError('conflict', 'Two-step verification is already on.');
    }
    mapAuthError(err);
  }
}

/** Step 2: a code from the app proves it is set up; two-step verification is on from now (new session cookie). */
export async function confirmTwoFactor(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply, me: CurrentSession, code: string) {
  try {
    const { headers } = await keepPushAcrossSessionSwap(app, me.user.id, me.session.id, () =>
      app.auth.api.verifyTOTP({ headers: toFetchHeaders(req), body: { code }, returnHeaders: true }),
    );
    forwardCookies(headers, reply);
  } catch (err) {
    if (isAPIError(err) && (err.statusCode === 401 || err.statusCode === 400)) {
      const body = err.body as { code?: string } | undefined;
      if (body?.code === 'TOTP_NOT_ENABLED') throw new AppError('bad_request', 'Please start setting up two-step verification again.');
      throw new AppError('validation', SETTINGS_MESSAGES.codeWrong, { code: SETTINGS_MESSAGES.codeWrong });
    }
    throw err;
  }
  await app.realtime.closeSession(me.session.id);
  await notify(app, me.user.email, me.user.name, 'Two-step verification is on', [
    'From now on, signing in to Fancy asks for a code from your authenticator app (or one of your backup codes).',
  ]);
}

export async function disableTwoFactor(
  app: FastifyInstance,
  req: FastifyRequest,
  reply: FastifyReply,
  me: CurrentSession,
  password: string,
) {
  try {
    const { headers } = await keepPushAcrossSessionSwap(app, me.user.id, me.session.id, () =>
      app.auth.api.disableTwoFactor({ headers: toFetchHeaders(req), body: { password }, returnHeaders: true }),
    );
    forwardCookies(headers, reply);
  } catch (err) {
    mapAuthError(err);
  }
  await app.realtime.closeSession(me.session.id);
  await notify(app, me.user.email, me.user.name, 'Two-step verification is off', [
    'Signing in to Fancy no longer asks for a code from your authenticator app.',
  ]);
}

/** New backup codes (the old ones stop working). */
export async function regenerateBackupCodes(app: FastifyInstance, req: FastifyRequest, password: string): Promise<string[]> {
  try {
    const res = await app.auth.api.generateBackupCodes({ headers: toFetchHeaders(req), body: { password } });
    return res.backupCodes;
  } catch (err) {
    if (isAPIError(err) && (err.body as { code?: string } | undefined)?.code === 'TWO_FACTOR_NOT_ENABLED') {
      throw new AppError('bad_request', 'Turn on two-step verification first.');
    }
    mapAuthError(err);
  }
}
