/**
 * Build-time HTML of the signed-out entry pages (decision 015): rendered once with React's
 * renderToString when the client is built, put inside `#root` of a copy of index.html and served
 * for these paths, so their content paints before any script has run. The app then renders
 * over it (main.tsx waits for the page's code first, so there is no spinner in between).
 * Rendered as a visitor who is not signed in sees them; nothing member-specific is in them.
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter, Route, Routes } from 'react-router';
import type { PrerenderedPath } from '../shared/prerendered';
import { Providers } from './app/providers';
import { AuthLayout } from './features/auth/components/auth-layout';
import LoginPage from './features/auth/pages/login-page';
import RegisterPage from './features/auth/pages/register-page';
import LandingPage from './pages/landing-page';

export { PRERENDERED_PAGES as PRERENDERED } from '../shared/prerendered';

export function renderPage(path: PrerenderedPath): string {
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
          </Routes>
        </MemoryRouter>
      </Providers>
    </StrictMode>,
  );
}
