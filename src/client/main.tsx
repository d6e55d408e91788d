// First: zod reads its configuration when it loads (lib/zod-jitless).
import './lib/zod-jitless';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { Providers } from './app/providers';
import { routes } from './app/routes';
import { setRenderedAt } from './lib/clock';
import { cn } from './lib/cn';
import { pageCookies } from './lib/cookies';
import { londonDay } from './lib/london-time';
import { startPwa } from './lib/pwa';
import { forgetInheritedScroll } from './lib/scroll-start';
import './styles.css';

/**
 * What the first render uses and costs a slow phone several milliseconds the first time:
 * tailwind-merge's class map, the cookie jar (a call to the browser's network process), the
 * London time zone's data. Each is made in a task of its own before the render, which then runs
 * in short slices (decision 029).
 */
const FIRST_USES = [() => cn('p-0', 'p-1'), pageCookies, () => londonDay(new Date())];

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Creates the tab's router over the spec's route table (app/routes) and renders the app into #root. */
async function start() {
  for (const use of FIRST_USES) {
    use();
    await nextTask();
  }
  const container = document.getElementById('root') as HTMLElement;
  forgetInheritedScroll();
  const router = createBrowserRouter(routes);
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
  // the markup on screen becomes the app without being built again; taps made on it before then
  // are given to the app once it has (public/early-taps.js, decision 038).
  const render = () => {
    if (container.hasAttribute('data-ssr')) {
      setRenderedAt(Number(container.dataset.ssr) || undefined);
      startTransition(() => {
        hydrateRoot(container, app, { onRecoverableError: reportHydrationMismatch });
      });
      return;
    }
    const root = createRoot(container);
    startTransition(() => root.render(app));
  };

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
}

/** A page that could not be hydrated as sent is rendered anew by React; said once, for tests and developers. */
function reportHydrationMismatch(error: unknown) {
  console.warn('Fancy: the server-rendered page was rendered again in the browser:', error);
}

// A member page's starter (decision 029) evaluates the page's chunks one per task after this one,
// then starts the app: the page's code is all there when the router looks for it.
const starter = globalThis as { __fancyDeferStart?: boolean; __fancyStart?: () => void };
if (starter.__fancyDeferStart) starter.__fancyStart = () => void start();
else void start();
