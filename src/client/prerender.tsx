/**
 * Build-time HTML of the signed-out entry pages (decision 015): rendered once with React's
 * renderToString when the client is built, put inside `#root` of a copy of index.html and served
 * for these paths, so their content paints before any script has run. The app then renders
 * over it (main.tsx waits for the page's code, and the route for a page's `preload`, so there
 * is no spinner in between).
 * Rendered as a visitor who is not signed in sees them; nothing member-specific is in them.
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter, Route, Routes } from 'react-router';
import type { PrerenderedPath } from '../shared/prerendered';
import { Providers } from './app/providers';
import { QueryProvider } from './lib/query';
import { AuthLayout } from './features/auth/components/auth-layout';
import LoginPage from './features/auth/pages/login-page';
import RegisterPage from './features/auth/pages/register-page';
import PrivacyPage, { preload as preloadPrivacy } from './features/public/privacy-page';
import TermsPage, { preload as preloadTerms } from './features/public/terms-page';
import LandingPage from './pages/landing-page';

export { PRERENDERED_PAGES as PRERENDERED } from '../shared/prerendered';

/** Renders one page; the legal documents are loaded into the query cache first, as the route does. */
export async function renderPage(path: PrerenderedPath): Promise<string> {
  if (path === '/terms') await preloadTerms();
  if (path === '/privacy') await preloadPrivacy();
  return renderToString(
    <StrictMode>
      <Providers>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/" element={<LandingPage />} />
            <Route path="/auth" element={<AuthLayout />}>
              <Route path="login" element={<LoginPage />} />
              <Route path="register" element={<RegisterPage />} />
            </Route>
            <Route
              path="/terms"
              element={
                <QueryProvider>
                  <TermsPage />
                </QueryProvider>
              }
            />
            <Route
              path="/privacy"
              element={
                <QueryProvider>
                  <PrivacyPage />
                </QueryProvider>
              }
            />
          </Routes>
        </MemoryRouter>
      </Providers>
    </StrictMode>,
  );
}
