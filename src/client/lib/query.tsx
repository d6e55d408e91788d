import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ApiError } from './api';

/** One cache for the whole tab, provided by the lazily loaded layouts that fetch data (app/query-layout, the onboarding wizard). */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      retry: (count, err) => count < 2 && !(err instanceof ApiError && err.status >= 400 && err.status < 500),
    },
  },
});

export function QueryProvider({ children }: { children: React.ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
