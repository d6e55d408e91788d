import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { Providers } from './app/providers';
import { router } from './app/router';
import { startPwa } from './lib/pwa';
import './styles.css';

const container = document.getElementById('root') as HTMLElement;
startPwa((path) => void router.navigate(path));

function render() {
  createRoot(container).render(
    <StrictMode>
      <Providers>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  );
}

// A prerendered page (decision 015) stays on screen until the page's own code has loaded:
// rendering at once would swap it for the loading spinner first.
if (container.hasAttribute('data-prerendered') && !router.state.initialized) {
  const unsubscribe = router.subscribe((state) => {
    if (!state.initialized) return;
    unsubscribe();
    render();
  });
} else {
  render();
}
