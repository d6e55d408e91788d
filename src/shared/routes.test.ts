import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_ROUTES, matchRoute, SITEMAP_PATHS } from './routes';

const ROUTER_SOURCE = readFileSync(path.join(import.meta.dirname, '../client/app/routes.tsx'), 'utf8');

/** The paths the client router declares (nested paths joined to their parent's), with where each is declared. */
function routerEntries(): { path: string; at: number }[] {
  const source = ROUTER_SOURCE;
  const found: { path: string; at: number }[] = [];
  const re = /path: '([^']+)'/g;
  let parent = '';
  for (let m = re.exec(source); m; m = re.exec(source)) {
    const p = m[1];
    if (p === '*') continue;
    if (p.startsWith('/')) {
      found.push({ path: p, at: m.index });
      const next = source.indexOf("path: '", m.index + m[0].length);
      const between = source.slice(m.index, next === -1 ? undefined : next);
      if (between.includes('children')) parent = p;
    } else {
      found.push({ path: `${parent}/${p}`, at: m.index });
    }
  }
  return found;
}
const routerPaths = () => routerEntries().map((e) => e.path);

describe('one route table', () => {
  it('the server’s table has exactly the client router’s pages', () => {
    expect(new Set(routerPaths())).toEqual(new Set(Object.keys(APP_ROUTES)));
  });

  it('signed-out pages sit outside the sign-in gate in the router, member and admin pages inside it', () => {
    // Spec §6 "Anonymous" and §2 (/test-onboarding is unguarded): reachable without an account.
    const anonymous = ['/', '/terms', '/privacy', '/contact-support', '/campaign', '/campaign/qr', '/auth', '/auth/login'];
    for (const p of [...anonymous, '/auth/register', '/auth/forgot-password', '/auth/reset-password', '/test-onboarding']) {
      expect(['public', 'utility'], p).toContain(APP_ROUTES[p as keyof typeof APP_ROUTES]);
    }
    const gateAt = ROUTER_SOURCE.indexOf("gate('ProtectedRoute')");
    expect(gateAt).toBeGreaterThan(0);
    for (const { path: p, at } of routerEntries()) {
      const kind = APP_ROUTES[p as keyof typeof APP_ROUTES];
      if (kind === 'member' || kind === 'admin') expect(at, `${p} is behind sign-in`).toBeGreaterThan(gateAt);
      else expect(at, `${p} needs no account`).toBeLessThan(gateAt);
    }
  });

  it('matches parameters and trailing slashes, and nothing else', () => {
    expect(matchRoute('/')?.pattern).toBe('/');
    expect(matchRoute('/messages/8a1e')?.pattern).toBe('/messages/:id');
    expect(matchRoute('/mixers/abc/after')?.kind).toBe('member');
    expect(matchRoute('/home/')?.pattern).toBe('/home');
    for (const unknown of ['/no-such-page', '/blog~', '/home.bak', '/messages/a/b', '/mixers//after', '/%E0%A4%A', '/.env', '/admin/x']) {
      expect(matchRoute(unknown), unknown).toBeUndefined();
    }
  });

  it('the sitemap lists the signed-out pages only', () => {
    expect(SITEMAP_PATHS).toEqual(['/', '/auth/register', '/auth/login', '/terms', '/privacy', '/contact-support']);
  });
});
