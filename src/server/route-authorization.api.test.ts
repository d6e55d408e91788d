import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../tests/helpers/test-app';

/**
 * DESIGN §7: every API route is checked for anonymous, unverified, member and admin callers.
 * The routes are read from the running app, so a route added without a guard fails here
 * until it is guarded or listed below on purpose. ("Another member" depends on the data a
 * route touches and is tested beside each module.)
 */

/** Open to anyone: health, reference data, contact, the sign-in flow, and the WebSocket (authenticated at upgrade). */
const PUBLIC = new Set([
  'GET /api/health',
  'GET /api/ready',
  'GET /api/catalog/interests',
  'GET /api/catalog/gender-options',
  'GET /api/catalog/orientation-options',
  'POST /api/contact',
  'POST /api/auth/register',
  'POST /api/auth/resend-verification',
  'POST /api/auth/reset-password',
  'GET /api/auth/reset-password/:token',
  'POST /api/auth/login',
  'POST /api/auth/logout',
  'POST /api/auth/two-factor',
  'POST /api/auth/forgot-password',
  'GET /api/auth/session',
  'GET /api/auth/verify-email',
  'GET /api/me/role',
  'GET /api/realtime',
  // A suspended or banned member appeals by the one-time link mailed to them (issue 30): the token is the key.
  'GET /api/appeals/link',
  'POST /api/appeals/link',
]);

/** A signed-in account that has not verified its address may still take its data with it or leave (docs/decisions/003). */
const UNVERIFIED_ALLOWED = new Set([
  'GET /api/me/export',
  'DELETE /api/me',
  'POST /api/me/reauthenticate',
  // A decision about an account can always be seen and appealed, whatever state its address is in (issue 30).
  'GET /api/moderation/mine',
  'POST /api/appeals',
]);

/** Lists `METHOD /path` for every route, from Fastify's route tree. */
function routesOf(t: TestApp): string[] {
  const parents: string[] = [];
  const routes: string[] = [];
  for (const line of t.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = line.match(/^((?:│ {3}| {4})*)[├└]── (\S+) \(([^)]+)\)$/);
    if (!m) continue;
    const depth = m[1].length / 4;
    parents.length = depth;
    const path = (parents[depth - 1] ?? '') + m[2];
    parents[depth] = path;
    for (const method of m[3].split(', ')) if (method !== 'HEAD') routes.push(`${method} ${path}`);
  }
  return routes.filter((r) => r.split(' ')[1].startsWith('/api/'));
}

const ID = '00000000-0000-4000-8000-000000000000';

describe('route authorization', () => {
  let t: TestApp;
  let routes: string[];
  let unverified: string;
  let member: string;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp();
    routes = routesOf(t);
    unverified = (await t.member('Una Verified', { verified: false })).cookie;
    member = (await t.member('Mem Ber')).cookie;
    admin = (await t.member('Ad Min', { admin: true })).cookie;
  });
  afterAll(() => t.close());

  /** Calls a route with an empty (invalid) body, so a guard that runs after validation shows up as 400. */
  const call = (route: string, cookie?: string) => {
    const [method, path] = route.split(' ');
    const hasBody = !['GET', 'DELETE'].includes(method);
    return t.request({
      method: method as 'GET',
      url: path.replace(/:[A-Za-z]+/g, ID),
      cookie,
      ...(hasBody ? { payload: {} } : {}),
    });
  };

  it('finds the routes and every listed exception still exists', () => {
    expect(routes.length).toBeGreaterThan(60);
    for (const r of [...PUBLIC, ...UNVERIFIED_ALLOWED]) expect(routes, r).toContain(r);
  });

  it('answers anonymous callers with 401 everywhere except the public routes', async () => {
    const wrong: string[] = [];
    for (const route of routes.filter((r) => !PUBLIC.has(r))) {
      const res = await call(route);
      if (res.statusCode !== 401) wrong.push(`${route} → ${res.statusCode}`);
    }
    expect(wrong).toEqual([]);
  });

  it('answers unverified accounts with 403 on member routes', async () => {
    const wrong: string[] = [];
    for (const route of routes.filter((r) => !PUBLIC.has(r) && !UNVERIFIED_ALLOWED.has(r))) {
      const res = await call(route, unverified);
      if (res.statusCode !== 403) wrong.push(`${route} → ${res.statusCode}`);
    }
    expect(wrong).toEqual([]);
  });

  it('keeps admin routes from members and opens them to admins', async () => {
    const adminRoutes = routes.filter((r) => r.split(' ')[1].startsWith('/api/admin/'));
    expect(adminRoutes.length).toBeGreaterThan(10);
    const wrong: string[] = [];
    for (const route of adminRoutes) {
      const asMember = await call(route, member);
      if (asMember.statusCode !== 403) wrong.push(`member: ${route} → ${asMember.statusCode}`);
      const asAdmin = await call(route, admin);
      if ([401, 403].includes(asAdmin.statusCode) || asAdmin.statusCode >= 500) wrong.push(`admin: ${route} → ${asAdmin.statusCode}`);
    }
    expect(wrong).toEqual([]);
  });

  it('never answers a member with a server error on empty or made-up input', async () => {
    const skip = new Set(['POST /api/auth/logout', 'DELETE /api/me', 'POST /api/me/sessions/revoke-others']);
    const wrong: string[] = [];
    for (const route of routes.filter((r) => !skip.has(r) && r !== 'GET /api/realtime')) {
      const res = await call(route, member);
      if (res.statusCode >= 500) wrong.push(`${route} → ${res.statusCode}`);
    }
    expect(wrong).toEqual([]);
  });
});
