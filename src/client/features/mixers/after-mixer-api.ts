import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AfterMixerView, OpenPrompt } from '../../../shared/after-mixer';
import { api } from '../../lib/api';
import { sendFancy } from './api';

export const afterMixerKey = (id: string) => ['mixers', 'after', id] as const;
export const openPromptsKey = ['me', 'after-mixer'] as const;

/** One mixer's "Who did you click with?" page (GET /api/mixers/:id/after). */
export function useAfterMixer(id: string) {
  return useQuery({
    queryKey: afterMixerKey(id),
    queryFn: () => api<AfterMixerView>(`/api/mixers/${encodeURIComponent(id)}/after`),
    retry: (count, err) => count < 2 && !(err as { status?: number }).status,
  });
}

/** The prompts still open for me, for Home (which preloads them with its code). */
export const openPromptsQuery = queryOptions({
  queryKey: openPromptsKey,
  queryFn: async () => (await api<{ prompts: OpenPrompt[] }>('/api/me/after-mixer')).prompts,
});

export function useOpenPrompts() {
  return useQuery(openPromptsQuery);
}

/** Fancy or un-fancy someone from the prompt, through the existing fancy routes; the page updates at once. */
export function usePromptFancy(mixerId: string) {
  const qc = useQueryClient();
  const key = afterMixerKey(mixerId);
  const patch = (userId: string, change: { fancied?: boolean; matchId?: string | null }) =>
    qc.setQueryData<AfterMixerView>(key, (d) => d && { ...d, people: d.people.map((p) => (p.id === userId ? { ...p, ...change } : p)) });
  return useMutation({
    mutationFn: ({ userId, fancy }: { userId: string; fancy: boolean }) => sendFancy(mixerId, userId, fancy),
    onMutate: async ({ userId, fancy }) => {
      await qc.cancelQueries({ queryKey: key });
      const previous = qc.getQueryData<AfterMixerView>(key);
      patch(userId, { fancied: fancy });
      return { previous };
    },
    onSuccess: (result, { userId }) => {
      if (result.fancied && result.matchId) patch(userId, { matchId: result.matchId });
    },
    onError: (_err, _vars, ctx: { previous?: AfterMixerView } | undefined) => qc.setQueryData(key, ctx?.previous),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: ['fancies', mixerId] });
    },
  });
}
