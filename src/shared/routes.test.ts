import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_ROUTES, matchRoute, SITEMAP_PATHS } from './routes';

/** The paths the client router declares, nested paths joined to their parent's. */
function routerPaths(): string[] {
  const source = readFileSync(path.join(import.meta.dirname, '../client/app/router.tsx'), 'utf8');
  const found: string[] = [];
  const re = /path: '([^']+)'/g;
  let parent = '';
  for (let m = re.exec(source); m; m = re.exec(source)) {
    const p = m[1];
    if (p === '*') continue;
    if (p.startsWith('/')) {
      found.push(p);
      const next = source.indexOf("path: '", m.index + m[0].length);
      const between = source.slice(m.index, next === -1 ? undefined : next);
      if (between.includes('children')) parent = p;
    } else {
      found.push(`${parent}/${p}`);
    }
  }
  return found;
}

describe('one route table', () => {
  it('the server’s table has exactly the client router’s pages', () => {
    expect(new Set(routerPaths())).toEqual(new Set(Object.keys(APP_ROUTES)));
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
