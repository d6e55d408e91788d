/**
 * What a member page needs before it can paint, known from its path alone (issue 19, decision
 * 018): the page's code (the modules under `src/client/` that `app/routes.tsx` loads for it) and
 * its first API reads. The build writes, per entry, a copy of index.html that names every chunk
 * of those modules as `<link rel="modulepreload">` (`dist/client/routes/<file>`); the server
 * sends that copy for the path with the answers of the first reads in it (as JSON in a
 * `<script id="fancy-data">`, src/server/http/member-page.ts). Code starts with the HTML, and the
 * data is there when it runs: no round trip for the session, then another for the page's reads.
 *
 * The reads are the same URLs the page's queries ask for (the app takes each embedded answer
 * once, for its first request of that URL, src/client/lib/api.ts); each is answered for this
 * load, with the session cookie, so nothing is older than the page.
 */

/** The member shell every signed-in page is rendered in (router: query layout → gate → shell). */
export const MEMBER_SHELL = ['app/query-layout', 'features/auth/protected-route', 'features/shell/app-shell'] as const;
/** Read by the gate and by the shell (unread badges) on every member page. */
const MEMBER_READS = ['/api/auth/session', '/api/stats'] as const;
/** Read by both chat rooms: my hidden words, which fold lines that contain them (issue 30). */
const ROOM_READS = ['/api/settings/hidden-words'] as const;

export interface RoutePreload {
  /** A path with `:id` segments (the only parameter used), matched whole. */
  pattern: string;
  /** The file under `dist/client/routes/`. */
  file: string;
  /** Modules under src/client (no extension) whose chunks the page needs, outermost first. */
  modules: readonly string[];
  /**
   * Reads whose refusal (403) is itself the answer the page is rendered from: the page shows
   * nothing of them then (the mixer's chat to someone not in it), so the server renders it without
   * them (decision 038). Any other read that does not answer leaves the page to the browser.
   */
  refusable?: readonly string[];
  /** The page's first reads; `:id` is the path's id. */
  reads: readonly string[];
}

export const ROUTE_PRELOADS: readonly RoutePreload[] = [
  {
    pattern: '/home',
    file: 'home.html',
    modules: [...MEMBER_SHELL, 'features/home/home-page'],
    reads: [
      ...MEMBER_READS,
      '/api/invitations',
      '/api/me/after-mixer',
      '/api/mixers?section=mine&limit=3&active=true',
      '/api/profile/availability',
      '/api/verification',
    ],
  },
  {
    pattern: '/mixers',
    file: 'mixers.html',
    modules: [...MEMBER_SHELL, 'features/mixers/mixers-page'],
    reads: [...MEMBER_READS, '/api/mixers?section=foryou&limit=12', '/api/mixers/topics'],
  },
  {
    pattern: '/mixers/:id',
    file: 'mixer.html',
    modules: [...MEMBER_SHELL, 'features/mixers/mixer-detail-page'],
    reads: [
      ...MEMBER_READS,
      '/api/mixers/:id',
      '/api/mixers/:id/messages',
      '/api/fancies?mixerId=:id',
      ...ROOM_READS,
      '/api/mixers/:id/read',
      '/api/mixers/:id/host',
      '/api/line-privacy?mixerId=:id',
    ],
    // Someone not in the mixer (yet) sees it with Join: its chat is for the people in it.
    refusable: ['/api/mixers/:id/messages', '/api/mixers/:id/read', '/api/mixers/:id/host'],
  },
  {
    pattern: '/messages',
    file: 'messages.html',
    modules: [...MEMBER_SHELL, 'features/messages/messages-layout', 'features/messages/messages-index-page'],
    reads: [...MEMBER_READS, '/api/conversations'],
  },
  {
    pattern: '/messages/:id',
    file: 'thread.html',
    modules: [...MEMBER_SHELL, 'features/messages/messages-layout', 'features/messages/thread-page'],
    reads: [
      ...MEMBER_READS,
      '/api/conversations',
      '/api/conversations/:id',
      '/api/conversations/:id/messages',
      ...ROOM_READS,
      '/api/line-privacy?matchId=:id',
    ],
  },
  {
    pattern: '/matches',
    file: 'matches.html',
    modules: [...MEMBER_SHELL, 'features/matches/matches-page'],
    reads: [...MEMBER_READS, '/api/matches'],
  },
  {
    pattern: '/profile',
    file: 'profile.html',
    modules: [...MEMBER_SHELL, 'features/profile/profile-page'],
    reads: [
      ...MEMBER_READS,
      '/api/profile',
      '/api/settings',
      '/api/profile/availability',
      '/api/verification',
      '/api/me/reliability',
      '/api/catalog/gender-options',
      '/api/catalog/orientation-options',
      '/api/catalog/interests',
    ],
  },
  {
    pattern: '/settings',
    file: 'settings.html',
    modules: [...MEMBER_SHELL, 'features/settings/settings-page'],
    reads: [...MEMBER_READS, '/api/settings', '/api/me/sessions', '/api/push/devices', '/api/settings/hidden-words'],
  },
];

/** Ids as the API issues them (UUIDs, nanoids): anything else gets the page without data hints. */
const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The entry for `pathname` (no query string) and its id, if any. */
export function matchRoutePreload(pathname: string): { route: RoutePreload; id?: string } | undefined {
  const parts = pathname.replace(/\/+$/, '').split('/');
  for (const route of ROUTE_PRELOADS) {
    const want = route.pattern.split('/');
    if (want.length !== parts.length) continue;
    let id: string | undefined;
    const same = want.every((seg, i) => {
      if (seg !== ':id') return seg === parts[i];
      id = parts[i];
      return ID.test(parts[i]);
    });
    if (same) return { route, id };
  }
  return undefined;
}

/** The page's first reads for the path's id: the URLs the app asks for. */
export function readUrls(route: RoutePreload, id?: string): string[] {
  return route.reads.map((read) => read.replaceAll(':id', id ?? ''));
}

/** The id of the `<script type="application/json">` a member page's first reads come in. */
export const EMBEDDED_DATA_ID = 'fancy-data';

/**
 * How long after the page started loading an embedded answer may still be used: long enough for
 * a slow phone to run the code, short enough that a read asked for later goes to the server.
 */
export const EMBEDDED_DATA_MAX_AGE_MS = 15_000;

/** Where in the built client the member pages' server renderer is (vite.config.ts, decision 028): `<dir>/entry.mjs`. */
export const SERVER_RENDERER_DIR = '.ssr';
