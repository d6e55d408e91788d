// First: zod reads its configuration when it loads (lib/zod-jitless).
import './lib/zod-jitless';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { Providers } from './app/providers';
import { router } from './app/router';
import { setRenderedAt } from './lib/clock';
import { startPwa } from './lib/pwa';
import './styles.css';

const container = document.getElementById('root') as HTMLElement;
startPwa((path) => void router.navigate(path));

const app = (
  <StrictMode>
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>
);

// Rendered as a transition, React works in slices and a slow phone stays responsive while the
// page is built (decision 018). A member page the server rendered (decision 028) is hydrated:
// the markup on screen becomes the app without being built again; `inert` (set by the server so
// nothing is used before the app can answer) goes once it has.
function render() {
  if (container.hasAttribute('data-ssr')) {
    setRenderedAt(Number(container.dataset.ssr) || undefined);
    startTransition(() => {
      hydrateRoot(container, app, { onRecoverableError: reportHydrationMismatch });
    });
    return;
  }
  const root = createRoot(container);
  startTransition(() => root.render(app));
}

/** A page that could not be hydrated as sent is rendered anew by React; said once, for tests and developers. */
function reportHydrationMismatch(error: unknown) {
  console.warn('Fancy: the server-rendered page was rendered again in the browser:', error);
}

// A prerendered page (decision 015) or a server-rendered one stays on screen until the page's
// own code (and, for a route with a `preload`, its data) has loaded: rendering at once would swap
// it for the loading spinner first, and hydration needs the same tree the server rendered.
if ((container.hasAttribute('data-prerendered') || container.hasAttribute('data-ssr')) && !router.state.initialized) {
  const unsubscribe = router.subscribe((state) => {
    if (!state.initialized) return;
    unsubscribe();
    render();
  });
} else {
  render();
}
