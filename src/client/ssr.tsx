/**
 * A member page rendered on the server (issue 19, decision 028): the HTML of the page a member
 * opens, made from the very answers the server embeds in it (src/server/http/member-page.ts),
 * so the phone paints the member's own content as soon as the HTML and the stylesheet are in,
 * before any script has run; the app then hydrates it (main.tsx).
 *
 * Built by Vite into `dist/client/.ssr/` (vite.config.ts) and loaded by the server on demand.
 * The client's modules keep their data in module state (the query cache, the embedded answers),
 * so renders run one at a time and each starts and ends with both empty: nothing of one member's
 * render is there for the next.
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { Providers } from './app/providers';
import { routes } from './app/routes';
import { setServerRenderAnswers } from './lib/api';
import { setRenderedAt } from './lib/clock';
import { setServerRenderCookies } from './lib/cookies';
import { queryClient } from './lib/query';

const handler = createStaticHandler(routes);
// A read the server did not answer is not asked for here: the page renders its own state for it.
queryClient.setDefaultOptions({ queries: { ...queryClient.getDefaultOptions().queries, retry: false } });
let queue: Promise<unknown> = Promise.resolve();

/**
 * The markup of `url`'s page (a path) for a member whose first reads answered `answers` (URL → JSON), or
 * null when the page would not render as itself (a redirect, an error): the app then renders it
 * in the browser as before. What the page says about time is said as of `renderedAt`, the instant
 * the browser hydrates it with (lib/clock).
 */
export function renderMemberPage(
  url: string,
  answers: Record<string, unknown>,
  cookies = '',
  renderedAt = Date.now(),
): Promise<string | null> {
  const run = queue.then(() => render(url, answers, cookies, renderedAt));
  queue = run.catch(() => undefined);
  return run;
}

async function render(url: string, answers: Record<string, unknown>, cookies: string, renderedAt: number): Promise<string | null> {
  setServerRenderAnswers(answers);
  setServerRenderCookies(cookies);
  setRenderedAt(renderedAt);
  queryClient.clear();
  try {
    const context = await handler.query(new Request(new URL(url, 'http://fancy.invalid')));
    if (context instanceof Response || context.errors) return null;
    const router = createStaticRouter(handler.dataRoutes, context);
    return renderToString(
      <StrictMode>
        <Providers>
          <StaticRouterProvider router={router} context={context} hydrate={false} />
        </Providers>
      </StrictMode>,
    );
  } finally {
    setServerRenderAnswers(undefined);
    setServerRenderCookies(undefined);
    setRenderedAt(undefined);
    queryClient.clear();
  }
}
