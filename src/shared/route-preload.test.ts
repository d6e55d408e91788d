import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { matchRoutePreload, ROUTE_PRELOADS, readUrls } from './route-preload';

const CLIENT = path.join(import.meta.dirname, '../client');

describe('member route preloads (decision 018)', () => {
  it('matches each member page by its whole path, with the id of /mixers/:id and /messages/:id', () => {
    expect(matchRoutePreload('/home')?.route.file).toBe('home.html');
    expect(matchRoutePreload('/mixers')?.route.file).toBe('mixers.html');
    expect(matchRoutePreload('/mixers/')?.route.file).toBe('mixers.html');
    expect(matchRoutePreload('/mixers/0b6c5e1e-8f2a-4c55-9d59-3f1d2a7c9e10')).toMatchObject({
      route: { file: 'mixer.html' },
      id: '0b6c5e1e-8f2a-4c55-9d59-3f1d2a7c9e10',
    });
    expect(matchRoutePreload('/messages/abc_123')).toMatchObject({ route: { file: 'thread.html' }, id: 'abc_123' });
    // Other pages, deeper paths and the admin pages are not in the table.
    for (const other of ['/', '/auth/login', '/mixers/x/after', '/admin', '/homes', '/profile/edit']) {
      expect(matchRoutePreload(other)).toBeUndefined();
    }
  });

  it('never puts a path segment that is not an id into a preload URL', () => {
    for (const hostile of ['/mixers/a%3E%3Cscript', '/mixers/..', '/mixers/a,b', `/mixers/${'a'.repeat(65)}`, '/messages/a;rel=x']) {
      expect(matchRoutePreload(hostile)).toBeUndefined();
    }
  });

  it("the first reads are the session, the counters and the page's own reads, with the path's id", () => {
    const { route, id } = matchRoutePreload('/mixers/m-1') ?? { route: ROUTE_PRELOADS[0] };
    expect(readUrls(route, id)).toEqual([
      '/api/auth/session',
      '/api/stats',
      '/api/mixers/m-1',
      '/api/mixers/m-1/messages',
      '/api/fancies?mixerId=m-1',
      '/api/settings/hidden-words',
      '/api/mixers/m-1/read',
      '/api/mixers/m-1/host',
      '/api/line-privacy?mixerId=m-1',
    ]);
  });

  it('names only modules the router really loads for that page', () => {
    const router = readFileSync(path.join(CLIENT, 'app/routes.tsx'), 'utf8');
    for (const route of ROUTE_PRELOADS) {
      for (const mod of route.modules) {
        expect(existsSync(path.join(CLIENT, `${mod}.tsx`)), mod).toBe(true);
        // routes.tsx imports './x' for app/, '../features/x' for the rest.
        const spec = mod.startsWith('app/') ? `'./${mod.slice(4)}'` : `'../${mod}'`;
        expect(router, `${route.pattern} → ${mod}`).toContain(spec);
      }
      // The thread is a child of /messages in the route table.
      const own = route.pattern === '/messages/:id' ? ':id' : route.pattern;
      expect(router, route.pattern).toContain(`path: '${own}'`);
    }
  });
});
