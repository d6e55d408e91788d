/**
 * The app's route table as the server sees it (issue 20, decision 021): every path the client
 * router (src/client/app/routes.tsx) shows a page for, and who it is for. The server answers
 * these with the app (200) and anything else with the app's not-found page and 404; robots.txt
 * and sitemap.xml are built from it. src/shared/routes.test.ts keeps it equal to the router's.
 */
export type RouteKind =
  /** Signed-out pages worth finding: in sitemap.xml, allowed in robots.txt, with link previews. */
  | 'public'
  /** Reachable signed out but not worth indexing (redirects, one-off forms, printables). */
  | 'utility'
  /** Behind sign-in. */
  | 'member'
  | 'admin';

export const APP_ROUTES = {
  '/': 'public',
  '/auth/register': 'public',
  '/auth/login': 'public',
  '/terms': 'public',
  '/privacy': 'public',
  '/contact-support': 'public',
  '/campaign': 'utility',
  '/campaign/qr': 'utility',
  '/beta': 'utility',
  '/beta-landing': 'utility',
  '/status': 'utility',
  '/appeal': 'utility',
  '/test-onboarding': 'utility',
  '/auth': 'utility',
  '/auth/forgot-password': 'utility',
  '/auth/reset-password': 'utility',
  '/home': 'member',
  '/mixers': 'member',
  '/mixers/:id': 'member',
  '/mixers/:id/after': 'member',
  '/matches': 'member',
  '/messages': 'member',
  '/messages/:id': 'member',
  '/modern-love-letters': 'member',
  '/modern-love-letters/:slug': 'member',
  '/profile': 'member',
  '/settings': 'member',
  '/settings/safety': 'member',
  '/verify': 'member',
  '/admin': 'admin',
  '/admin/interest-suggestions': 'admin',
  '/admin/metrics': 'admin',
  '/admin/mixers': 'admin',
  '/admin/formation': 'admin',
  '/admin/campaigns': 'admin',
  '/admin/reports': 'admin',
  '/admin/verification': 'admin',
  '/admin/members': 'admin',
  '/admin/members/:id': 'admin',
} as const satisfies Record<string, RouteKind>;

export type AppRoute = keyof typeof APP_ROUTES;

/** A route parameter: one non-empty segment (React Router's `:param`). */
const PARAM = '[^/]+';
const compiled = Object.entries(APP_ROUTES).map(([pattern, kind]) => ({
  pattern: pattern as AppRoute,
  kind: kind as RouteKind,
  regex: new RegExp(`^${pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z]+/g, PARAM)}/?$`),
}));

/** The route a path belongs to (a trailing slash allowed, as React Router does), or undefined. */
export function matchRoute(pathname: string): { pattern: AppRoute; kind: RouteKind } | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const hit = compiled.find((r) => r.regex.test(pathname));
  return hit && { pattern: hit.pattern, kind: hit.kind };
}

/** Pages listed in sitemap.xml. */
export const SITEMAP_PATHS = Object.entries(APP_ROUTES)
  .filter(([, kind]) => kind === 'public')
  .map(([p]) => p);
