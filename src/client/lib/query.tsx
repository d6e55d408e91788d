import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ApiError } from './api';

/** One cache for the whole tab, provided by the lazily loaded layouts that fetch data (app/query-layout, the onboarding wizard). */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      retry: (count, err) => count < 2 && !(err instanceof ApiError && err.status >= 400 && err.status < 500),
    },
    // An action taken offline fails at once with its error and a way to retry (a chat line: "Not
    // sent." and Retry, its text kept) instead of waiting, paused and silent, for the network.
    mutations: { networkMode: 'always' },
  },
});

export function QueryProvider({ children }: { children: React.ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}

/** How long a route waits for its first data before rendering anyway (the page then shows its own loading state). */
export const PRELOAD_WAIT_MS = 4000;

/**
 * A page's `preload`, its route's loader (decision 018): starts the page's first queries with
 * the navigation and resolves when they have settled (or after PRELOAD_WAIT_MS), so the page
 * renders once with them instead of growing section by section. Pass `ensureQueryData` /
 * `ensureInfiniteQueryData` with `revalidateIfStale`: cached data is shown and refetched in the
 * background exactly as the page's own query would do on mount, missing data is awaited.
 * Never rejects: a failed read stays in the cache as an error and the page shows its own
 * message and retry.
 */
export function preloadQueries(start: (client: QueryClient) => Promise<unknown>[]): Promise<unknown> {
  const settled = Promise.all(start(queryClient).map((p) => p.catch(() => undefined)));
  return Promise.race([settled, new Promise((resolve) => setTimeout(resolve, PRELOAD_WAIT_MS))]);
}

/**
 * What every cursor-paginated list (`{ …, nextCursor }`) gives its infinite query: the first
 * page has no cursor, each next page asks from the last one's `nextCursor` (none: the end).
 */
export const cursorPages = {
  initialPageParam: null as string | null,
  getNextPageParam: (last: { nextCursor: string | null }) => last.nextCursor,
};

/** `path` with `?<name>=<cursor>` when there is a cursor. */
export const withCursor = (path: string, cursor: string | null, name = 'cursor') =>
  cursor ? `${path}?${name}=${encodeURIComponent(cursor)}` : path;
