import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type { MatchesPage } from '../../../shared/schemas/matches';
import { api } from '../../lib/api';
import { cursorPages, withCursor } from '../../lib/query';

export const matchKeys = { list: ['matches'] as const };

export const matchesQuery = infiniteQueryOptions({
  queryKey: matchKeys.list,
  queryFn: ({ pageParam, signal }) => api<MatchesPage>(withCursor('/api/matches', pageParam), { signal }),
  ...cursorPages,
});

export function useMatches() {
  return useInfiniteQuery(matchesQuery);
}

export function useUnmatch() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (matchId: string) => api<{ status: string }>(`/api/matches/${matchId}/unmatch`, { method: 'POST' }),
    onSuccess: (_res, matchId) => {
      void qc.invalidateQueries({ queryKey: matchKeys.list });
      void qc.invalidateQueries({ queryKey: ['conversations'] });
      void qc.invalidateQueries({ queryKey: ['conversation', matchId] });
    },
  });
}
