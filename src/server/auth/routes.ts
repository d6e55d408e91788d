import { and, eq, like } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isAPIError } from 'better-auth/api';
import type { z } from 'zod/mini';
import { forgotPasswordSchema, loginSchema, registerSchema, resendSchema, resetPasswordSchema } from '../../shared/schemas/auth';
import { profiles, session as sessionTable, verification } from '../db/schema';
import { signedAvatarUrl } from '../modules/profiles/service';
import { deleteAccount } from '../modules/settings/service';
import { SETTINGS_MESSAGES, twoFactorLoginSchema } from '../../shared/schemas/settings';
import { AppError, errorBody } from '../http/errors';
import { HOUR, MINUTE } from '../http/rate-limiter';
import { consume } from '../http/shared-limits';
import { assertStrongPassword, memberWords } from './passwords';
import { forwardCookies, getSession, requireSession, toFetchHeaders } from './session';
import { requireRecentAuth } from './reauth';
import { MODERATION_MESSAGES } from '../../shared/schemas/moderation';
import { guardProfileTexts } from '../modules/guard/service';
import { isBannedEmail } from './banned-emails';
import { applyEmailChange, confirmAddress, readChangeToken, readSignupToken } from './verification';

/** better-auth's own error → our error shape, keeping its message. */
function rethrow(err: unknown): never {
  if (isAPIError(err)) {
    const status = err.statusCode;
    const message = (err.body as { message?: string } | undefined)?.message || err.message || 'Something went wrong.';
    const code =
      status === 401
        ? 'unauthenticated'
        : status === 403
          ? 'forbidden'
          : status === 429
            ? 'rate_limited'
            : status === 404
              ? 'not_found'
              : 'bad_request';
    throw new AppError(code, message);
  }
  throw err;
}

const ip = (req: FastifyRequest) => req.ip;

export function registerAuthRoutes(app: FastifyInstance) {
  const limiter = app.limits.window('auth');
  const { config } = app.deps;

  app.post('/api/auth/register', { schema: { body: registerSchema } }, async (req, reply) => {
    const body = req.body as z.output<typeof registerSchema>;
    await limiter.hit(
      `signup:ip:${ip(req)}`,
      [{ limit: 10, windowMs: HOUR }],
      'Too many sign-ups from this network. Please try again later.',
    );
    await assertStrongPassword(body.password, [body.email, body.fullName]);
    // The name shows beside every line the member writes: no handle or number in it (issue 30).
    guardProfileTexts({ fullName: body.fullName });
    // A banned member's address (kept hashed, issue 30) cannot register again.
    if (await isBannedEmail(app.deps.database.db, body.email)) throw new AppError('forbidden', MODERATION_MESSAGES.bannedEmail);
    const c = body.campaign;
    try {
      await app.auth.api.signUpEmail({
        headers: toFetchHeaders(req),
        body: {
          name: body.fullName,
          email: body.email,
          password: body.password,
          callbackURL: '/home',
          ...(c && {
            utmSource: c.utm_source,
            utmMedium: c.utm_medium,
            utmCampaign: c.utm_campaign,
            campaignCode: c.campaign_code,
            campaignLabel: c.campaign_label,
          }),
        },
      });
    } catch (err) {
      rethrow(err);
    }
    return reply.send({ ok: true, email: body.email });
  });

  /**
   * Sign-in limits count failures only (docs/decisions/006): per network and per network + address,
   * so a stranger's guesses slow down the stranger, never the owner's correct password from elsewhere,
   * and many members behind one address can all sign in.
   */
  const tooManySignIns = 'Too many sign-in attempts. Please wait a few minutes and try again.';
  const failuresPerIp = [{ limit: 30, windowMs: 15 * MINUTE }];
  const failuresPerIpAndAddress = [{ limit: 5, windowMs: 15 * MINUTE }];

  app.post('/api/auth/login', { schema: { body: loginSchema } }, async (req, reply) => {
    const { email, password, verifyToken } = req.body as z.output<typeof loginSchema>;
    // Counted as a failure before the password is checked (parallel guesses cannot all pass), given back unless it was one.
    const giveBack = await consume(
      limiter,
      [
        [`login-fail:ip:${ip(req)}`, failuresPerIp],
        [`login-fail:ip:${ip(req)}:email:${email}`, failuresPerIpAndAddress],
      ],
      tooManySignIns,
    );
    let twoFactor = false;
    let signedIn: { token?: string | null; user?: { id: string } } | undefined;
    try {
      const { headers, response } = await app.auth.api.signInEmail({
        headers: toFetchHeaders(req),
        body: { email, password, rememberMe: true },
        returnHeaders: true,
      });
      forwardCookies(headers, reply);
      // Two-step verification on: no session yet, only a short-lived two-factor cookie.
      twoFactor = Boolean((response as { twoFactorRedirect?: boolean } | null)?.twoFactorRedirect);
      signedIn = response as unknown as typeof signedIn;
    } catch (err) {
      if (!(isAPIError(err) && err.statusCode === 401)) await giveBack();
      rethrow(err);
    }
    await giveBack();
    // Signing in from a verification link confirms the address (mailbox + password: auth/verification.ts).
    if (verifyToken && !twoFactor && signedIn?.token && signedIn.user) {
      const claims = await readSignupToken(app, verifyToken);
      if (claims && claims.userId === signedIn.user.id) {
        const [current] = await app.deps.database.db
          .select({ id: sessionTable.id })
          .from(sessionTable)
          .where(eq(sessionTable.token, signedIn.token));
        if (current) await confirmAddress(app, claims, current.id);
      }
    }
    return reply.send(twoFactor ? { ok: true, twoFactor: true } : { ok: true });
  });

  /** The second step of signing in with two-step verification on: an authenticator or a backup code. */
  app.post('/api/auth/two-factor', { schema: { body: twoFactorLoginSchema } }, async (req, reply) => {
    const body = req.body as z.output<typeof twoFactorLoginSchema>;
    const message = 'Too many sign-in attempts. Please wait a few minutes and try again.';
    // Like the password step, only failures count against the network.
    const giveBack = await consume(limiter, [[`2fa-fail:ip:${ip(req)}`, failuresPerIp]], message);
    const wrong = body.method === 'totp' ? SETTINGS_MESSAGES.codeWrong : SETTINGS_MESSAGES.backupCodeWrong;
    try {
      const args = {
        headers: toFetchHeaders(req),
        body: { code: body.code, trustDevice: body.trustDevice ?? false },
        returnHeaders: true as const,
      };
      const { headers } = body.method === 'totp' ? await app.auth.api.verifyTOTP(args) : await app.auth.api.verifyBackupCode(args);
      forwardCookies(headers, reply);
    } catch (err) {
      if (isAPIError(err)) {
        const code = (err.body as { code?: string } | undefined)?.code;
        if (code === 'INVALID_CODE' || code === 'INVALID_BACKUP_CODE') throw new AppError('validation', wrong, { code: wrong });
        if (code === 'ACCOUNT_TEMPORARILY_LOCKED') throw new AppError('rate_limited', message);
        // No (or an expired) two-factor cookie, or too many tries on this one: start again.
        throw new AppError('unauthenticated', SETTINGS_MESSAGES.twoFactorExpired);
      }
      throw err;
    }
    await giveBack();
    return reply.send({ ok: true });
  });

  app.post('/api/auth/logout', async (req, reply) => {
    const current = await getSession(req);
    if (current) await app.realtime.closeSession(current.session.id);
    try {
      const { headers } = await app.auth.api.signOut({ headers: toFetchHeaders(req), returnHeaders: true });
      forwardCookies(headers, reply);
    } catch (err) {
      // Signing out without a session is not an error (spec §8: sign-out ignores 401/403/404).
      if (!isAPIError(err)) throw err;
    }
    return reply.send({ ok: true });
  });

  app.post('/api/auth/resend-verification', { schema: { body: resendSchema } }, async (req, reply) => {
    const { email } = req.body as { email: string };
    await limiter.hit(
      `resend:${email}`,
      [
        { limit: 1, windowMs: MINUTE },
        { limit: 5, windowMs: HOUR },
      ],
      'Please wait a minute before asking for another email.',
    );
    await limiter.hit(`resend:ip:${ip(req)}`, [{ limit: 20, windowMs: HOUR }]);
    // Every address takes the same path, after the response: better-auth's sessionless resend
    // looks the address up and mails only an unverified account (same answer, same time).
    const headers = toFetchHeaders(req);
    headers.delete('cookie');
    app.deps.mailer.background(app.auth.api.sendVerificationEmail({ headers, body: { email, callbackURL: '/home' } }));
    return reply.send({ ok: true });
  });

  app.post('/api/auth/forgot-password', { schema: { body: forgotPasswordSchema } }, async (req, reply) => {
    const { email } = req.body as { email: string };
    await limiter.hit(
      `forgot:${email}`,
      [{ limit: 3, windowMs: 15 * MINUTE }],
      'Please wait a few minutes before asking for another reset email.',
    );
    await limiter.hit(
      `forgot:ip:${ip(req)}`,
      [{ limit: 20, windowMs: HOUR }],
      'Please wait a few minutes before asking for another reset email.',
    );
    // Like resend: every address takes the same path, after the response. Looking the member up
    // and storing a token took measurably longer for a known address than an unknown one.
    app.deps.mailer.background(
      app.auth.api.requestPasswordReset({ headers: toFetchHeaders(req), body: { email, redirectTo: '/auth/reset-password' } }),
    );
    return reply.send({ ok: true });
  });

  app.post('/api/auth/reset-password', { schema: { body: resetPasswordSchema } }, async (req, reply) => {
    const { token, password } = req.body as { token: string; password: string };
    await limiter.hit(`reset:ip:${ip(req)}`, [{ limit: 20, windowMs: HOUR }]);
    // better-auth keeps the member's id under the token; read it before the reset consumes it.
    const [pending] = await app.deps.database.db
      .select({ userId: verification.value })
      .from(verification)
      .where(eq(verification.identifier, `reset-password:${token}`));
    // The same rule as sign-up and a password change, with the member's own name and address.
    await assertStrongPassword(password, pending ? await memberWords(app.deps.database.db, pending.userId) : []);
    try {
      await app.auth.api.resetPassword({ headers: toFetchHeaders(req), body: { token, newPassword: password } });
    } catch (err) {
      if (isAPIError(err) && err.statusCode === 400) {
        throw new AppError('bad_request', 'This reset link is invalid or has expired. Please ask for a new one.');
      }
      rethrow(err);
    }
    if (pending) {
      // Every other reset link of the member dies with this one.
      await app.deps.database.db
        .delete(verification)
        .where(and(eq(verification.value, pending.userId), like(verification.identifier, 'reset-password:%')));
      // Every session of the member was revoked: their sockets and cached sessions end too.
      await app.realtime.closeUser(pending.userId, 'password reset');
    }
    return reply.send({ ok: true });
  });

  /** The client's view of who is signed in (spec §3 auth context). */
  app.get('/api/auth/session', async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const current = await getSession(req);
    if (!current) return { user: null, session: null, profile: null };
    const { user, session } = current;
    const [profile] = await app.deps.database.db
      .select({
        fullName: profiles.fullName,
        onboardingCompleted: profiles.onboardingCompleted,
        avatarKey: profiles.avatarUrl,
        updatedAt: profiles.updatedAt,
      })
      .from(profiles)
      .where(eq(profiles.id, user.id));
    return {
      user: {
        id: user.id,
        email: user.email,
        name: user.name,
        emailVerified: user.emailVerified,
        role: user.role === 'admin' ? 'admin' : 'user',
        onboardingComplete: Boolean(user.onboardingComplete),
        createdAt: user.createdAt,
      },
      session: { expiresAt: session.expiresAt },
      profile: profile
        ? {
            fullName: profile.fullName,
            onboardingCompleted: profile.onboardingCompleted,
            avatarUrl: signedAvatarUrl(app.deps.signer, profile.avatarKey, profile.updatedAt),
          }
        : null,
    };
  });

  app.get('/api/me/role', async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const current = await getSession(req);
    return { role: current?.user.role === 'admin' ? 'admin' : 'user' };
  });

  /** Account deletion, for the signed-in member only (spec §4, §6). */
  app.delete('/api/me', async (req, reply) => {
    const current = await requireSession(req);
    await requireRecentAuth(app, current);
    try {
      // One transaction (a failure deletes nothing); their files go after the commit.
      await deleteAccount(app.deps, current.user.id, req.log);
    } catch (err) {
      req.log.error({ err }, 'account deletion failed');
      throw new AppError('internal', 'An error occurred while deleting your account. Please try again.');
    }
    await app.realtime.closeUser(current.user.id, 'account deleted');
    try {
      const { headers } = await app.auth.api.signOut({ headers: toFetchHeaders(req), returnHeaders: true });
      forwardCookies(headers, reply);
    } catch {
      reply.clearCookie('better-auth.session_token', { path: '/' });
    }
    return reply.send({ ok: true });
  });

  // The reset link mailed by better-auth lands here and is handled by it directly (verification and
  // e-mail change links are the app's own: GET /api/auth/verify-email below).
  const forward = async (req: FastifyRequest, reply: import('fastify').FastifyReply) => {
    const url = new URL(req.url, config.publicUrl);
    const response = await app.auth.handler(new Request(url, { method: 'GET', headers: toFetchHeaders(req) }));
    // better-auth's own JSON errors (a missing or mangled token) get the app's error shape.
    if (response.status >= 400 && response.status < 500) {
      return reply.status(400).send(errorBody('bad_request', 'This link is invalid or has expired. Please request a new one.'));
    }
    reply.status(response.status);
    response.headers.forEach((value, key) => {
      if (key !== 'set-cookie') reply.header(key, value);
    });
    forwardCookies(response.headers, reply);
    return reply.send(response.body ? Buffer.from(await response.arrayBuffer()) : undefined);
  };
  /**
   * A verification link never signs a browser in (docs/decisions/006): it leads to the login page,
   * where signing in with the link's token confirms the address. A browser signed in to the same
   * unverified account is signed out first (that session predates the confirmation); any other
   * account signed in here is left alone.
   *
   * An e-mail change link changes the address only in a browser signed in to the account that asked
   * (the link proves the mailbox, the session the account). Signed out, it leads to the login page,
   * which opens it again once signed in; signed in to another account, it changes nothing.
   */
  app.get('/api/auth/verify-email', async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const token = String((req.query as { token?: unknown }).token ?? '');
    const change = await readChangeToken(app, token);
    if (change) {
      const signedIn = await getSession(req);
      if (!signedIn) return reply.redirect(`/auth/login?${new URLSearchParams({ change: token })}`, 302);
      if (signedIn.user.id !== change.userId) return reply.redirect('/settings?error=OTHER_ACCOUNT', 302);
      const outcome = await applyEmailChange(app, change, { userId: signedIn.user.id, sessionId: signedIn.session.id });
      const to = {
        changed: '/settings?email=confirmed',
        invalid: '/settings?error=INVALID_TOKEN',
        'admin-address': '/settings?error=ADMIN_ADDRESS',
      };
      return reply.redirect(to[outcome], 302);
    }
    const claims = await readSignupToken(app, token);
    const current = await getSession(req);
    if (claims && current?.user.id === claims.userId) {
      await app.realtime.closeSession(current.session.id);
      const { headers } = await app.auth.api.signOut({ headers: toFetchHeaders(req), returnHeaders: true });
      forwardCookies(headers, reply);
    }
    const params = new URLSearchParams({ verify: claims ? token : 'invalid' });
    return reply.redirect(`/auth/login?${params}`, 302);
  });
  app.get('/api/auth/reset-password/:token', forward);
}
