import { type LoaderFunctionArgs, Navigate, type RouteObject, useLocation } from 'react-router';
import { FullPageSpinner } from '../components/ui/spinner';
import { ErrorScreen } from '../pages/error-screen';
import { NotFoundPage } from '../pages/not-found-page';
import { RootLayout } from './root-layout';

/** /beta and /beta-landing go to registration, keeping campaign parameters. */
function RedirectKeepingQuery({ to }: { to: string }) {
  const { search } = useLocation();
  return <Navigate to={`${to}${search}`} replace />;
}

/**
 * A page module may export `preload` (its first data): it becomes the route's loader, so each
 * navigation to the page (the first load too) renders it once with its data, no spinner or
 * section popping in between (decisions 015, 018). A preload never fails the route: a failed
 * read is the page's own error state.
 */
type PageModule = { default: React.ComponentType; preload?: (args: LoaderFunctionArgs) => Promise<unknown> };
const page =
  (load: () => Promise<PageModule>, may: () => boolean | Promise<boolean> = () => true) =>
  async () => {
    const { default: Component, preload } = await load();
    if (!preload) return { Component };
    return {
      Component,
      loader: async (args: LoaderFunctionArgs) => {
        if (await may()) await preload(args);
        return null;
      },
    };
  };
/**
 * A page behind the sign-in gates: its first data is read only once the gates are passed (the
 * module is the gate's own, loaded beside it), so a visitor or a member held at a gate makes no
 * reads that could only be refused.
 */
const memberData = (admin: boolean) => async () => (await import('../features/auth/protected-route')).mayLoadMemberData(admin);
const memberPage = (load: () => Promise<PageModule>) => page(load, memberData(false));
const adminPage = (load: () => Promise<PageModule>) => page(load, memberData(true));
const gate = (name: 'ProtectedRoute' | 'AdminRoute') => async () => ({
  Component: (await import('../features/auth/protected-route'))[name],
});

/**
 * The spec's route table (§2). Member pages live inside the shell; every page, layout and gate
 * loads on demand, so `/` and `/auth/*` download only what they show (DESIGN §7). TanStack
 * Query comes with the routes that use it (query-layout). The browser's router is made from it
 * in main.tsx; the server renders member pages from it too (src/client/ssr.tsx).
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <ErrorScreen />,
    // Shown while the first page's code loads (without it React Router warns on every load).
    hydrateFallbackElement: <FullPageSpinner />,
    children: [
      { path: '/', lazy: page(() => import('../pages/landing-page')) },
      { path: '/beta', element: <RedirectKeepingQuery to="/auth/register" /> },
      { path: '/beta-landing', element: <RedirectKeepingQuery to="/auth/register" /> },
      { path: '/contact-support', lazy: page(() => import('../features/public/contact-support-page')) },
      { path: '/campaign', lazy: page(() => import('../features/public/campaign-page')) },
      { path: '/campaign/qr', lazy: page(() => import('../features/public/campaign-qr-page')) },
      { path: '/test-onboarding', lazy: page(() => import('../features/onboarding/test-onboarding-page')) },
      {
        path: '/auth',
        lazy: async () => ({ Component: (await import('../features/auth/components/auth-layout')).AuthLayout }),
        children: [
          { index: true, element: <Navigate to="/auth/login" replace /> },
          { path: 'login', lazy: page(() => import('../features/auth/pages/login-page')) },
          { path: 'register', lazy: page(() => import('../features/auth/pages/register-page')) },
          { path: 'forgot-password', lazy: page(() => import('../features/auth/pages/forgot-password-page')) },
          { path: 'reset-password', lazy: page(() => import('../features/auth/pages/reset-password-page')) },
        ],
      },
      {
        lazy: page(() => import('./query-layout')),
        children: [
          { path: '/terms', lazy: page(() => import('../features/public/terms-page')) },
          { path: '/privacy', lazy: page(() => import('../features/public/privacy-page')) },
          { path: '/status', lazy: page(() => import('../features/public/status-page')) },
          { path: '/appeal', lazy: page(() => import('../features/public/appeal-page')) },
          {
            lazy: gate('ProtectedRoute'),
            children: [
              {
                lazy: memberPage(() => import('../features/shell/app-shell')),
                children: [
                  { path: '/home', lazy: memberPage(() => import('../features/home/home-page')) },
                  { path: '/mixers', lazy: memberPage(() => import('../features/mixers/mixers-page')) },
                  { path: '/mixers/:id', lazy: memberPage(() => import('../features/mixers/mixer-detail-page')) },
                  { path: '/mixers/:id/after', lazy: memberPage(() => import('../features/mixers/after-mixer-page')) },
                  { path: '/matches', lazy: memberPage(() => import('../features/matches/matches-page')) },
                  {
                    path: '/messages',
                    lazy: memberPage(() => import('../features/messages/messages-layout')),
                    children: [
                      { index: true, lazy: memberPage(() => import('../features/messages/messages-index-page')) },
                      { path: ':id', lazy: memberPage(() => import('../features/messages/thread-page')) },
                    ],
                  },
                  { path: '/modern-love-letters', lazy: memberPage(() => import('../features/blog/blog-list-page')) },
                  { path: '/modern-love-letters/:slug', lazy: memberPage(() => import('../features/blog/blog-post-page')) },
                  { path: '/profile', lazy: memberPage(() => import('../features/profile/profile-page')) },
                  { path: '/settings', lazy: memberPage(() => import('../features/settings/settings-page')) },
                  { path: '/settings/safety', lazy: memberPage(() => import('../features/settings/safety-page')) },
                  { path: '/verify', lazy: memberPage(() => import('../features/verification/verify-page')) },
                  {
                    lazy: gate('AdminRoute'),
                    children: [
                      { path: '/admin', lazy: adminPage(() => import('../features/admin/pages/overview-page')) },
                      { path: '/admin/interest-suggestions', lazy: adminPage(() => import('../features/admin/pages/suggestions-page')) },
                      { path: '/admin/metrics', lazy: adminPage(() => import('../features/admin/pages/metrics-page')) },
                      { path: '/admin/mixers', lazy: adminPage(() => import('../features/admin/pages/mixers-page')) },
                      { path: '/admin/formation', lazy: adminPage(() => import('../features/admin/pages/formation-page')) },
                      { path: '/admin/campaigns', lazy: adminPage(() => import('../features/admin/pages/campaigns-page')) },
                      { path: '/admin/reports', lazy: adminPage(() => import('../features/admin/pages/reports-page')) },
                      { path: '/admin/verification', lazy: adminPage(() => import('../features/admin/pages/verification-page')) },
                      { path: '/admin/members', lazy: adminPage(() => import('../features/admin/pages/members-page')) },
                      { path: '/admin/members/:id', lazy: adminPage(() => import('../features/admin/pages/member-page')) },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
