import {
  type InfiniteData,
  infiniteQueryOptions,
  type QueryClient,
  keepPreviousData,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { ChatMessage } from '../../../shared/realtime/events';
import type {
  ChatPage,
  JoinResult,
  MixerDetail,
  MixerIntent,
  MixerPage,
  MixerSection,
  MixerSummary,
  TopicFacets,
} from '../../../shared/mixer-facts';
import { api } from '../../lib/api';
import { useRealtime } from '../../lib/realtime';
import { applyLineChange, applyLineReaction } from '../chat';

export interface MixerFilters {
  q?: string;
  intent?: MixerIntent;
  topic?: string;
}

export const mixerKeys = {
  all: ['mixers'] as const,
  lists: () => ['mixers', 'list'] as const,
  list: (section: MixerSection, filters: MixerFilters, extra = '') => ['mixers', 'list', section, filters, extra] as const,
  detail: (id: string) => ['mixers', 'detail', id] as const,
  chat: (id: string) => ['mixers', 'chat', id] as const,
  topics: () => ['mixers', 'topics'] as const,
  fancies: (id: string) => ['fancies', id] as const,
};

function listUrl(section: MixerSection, filters: MixerFilters, limit: number, cursor?: string, active = false) {
  const params = new URLSearchParams({ section, limit: String(limit) });
  if (filters.q) params.set('q', filters.q);
  if (filters.intent) params.set('intent', filters.intent);
  if (filters.topic) params.set('topic', filters.topic);
  if (active) params.set('active', 'true');
  if (cursor) params.set('cursor', cursor);
  return `/api/mixers?${params}`;
}

/** One section of the list (live, upcoming, mine), cursor-paginated. */
export const mixerListQuery = (section: MixerSection, filters: MixerFilters, opts: { limit?: number; active?: boolean } = {}) => {
  const limit = opts.limit ?? 12;
  return infiniteQueryOptions({
    queryKey: mixerKeys.list(section, filters, `${limit}:${opts.active ? 'active' : ''}`),
    queryFn: ({ pageParam, signal }) => api<MixerPage>(listUrl(section, filters, limit, pageParam, opts.active), { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    // Changing a filter keeps the current cards (dimmed) until the new ones arrive.
    placeholderData: keepPreviousData,
    // Statuses follow the clock on the server: keep the list fresh while it is open.
    refetchInterval: 60_000,
  });
};

export function useMixerList(section: MixerSection, filters: MixerFilters, opts: { limit?: number; active?: boolean } = {}) {
  return useInfiniteQuery(mixerListQuery(section, filters, opts));
}

export const topicsQuery = queryOptions({
  queryKey: mixerKeys.topics(),
  queryFn: () => api<TopicFacets>('/api/mixers/topics'),
  staleTime: 5 * 60_000,
});

export function useTopics() {
  return useQuery(topicsQuery);
}

/** A mixer's `myState` as a list in the cache shows it (the list the member came from), if any does. */
export function listedMyState(client: QueryClient, id: string): MixerSummary['myState'] | undefined {
  for (const [, data] of client.getQueriesData<InfiniteData<MixerPage>>({ queryKey: mixerKeys.lists() })) {
    for (const page of data?.pages ?? []) {
      const listed = page.items.find((m) => m.id === id);
      if (listed) return listed.myState;
    }
  }
  return undefined;
}

export const mixerQuery = (id: string) =>
  queryOptions({
    queryKey: mixerKeys.detail(id),
    queryFn: ({ signal }) => api<MixerDetail>(`/api/mixers/${id}`, { signal }),
    refetchInterval: 30_000,
  });

export function useMixer(id: string) {
  return useQuery(mixerQuery(id));
}

export function useJoinMixer(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (waitlist: boolean) => api<JoinResult>(`/api/mixers/${id}/join`, { method: 'POST', body: { waitlist } }),
    onSettled: () => qc.invalidateQueries({ queryKey: mixerKeys.all }),
  });
}

export function useLeaveMixer(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api<{ ok: true }>(`/api/mixers/${id}/leave`, { method: 'POST', body: {} }),
    onSettled: () => qc.invalidateQueries({ queryKey: mixerKeys.all }),
  });
}

/** Accept or decline the seat an invitation holds for me in this mixer (issue 14). */
export function useAnswerInvitation(mixerId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, answer }: { id: string; answer: 'accept' | 'decline' }) =>
      api<{ status: string; mixerId: string }>(`/api/invitations/${id}/${answer}`, { method: 'POST', body: {} }),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: mixerKeys.detail(mixerId) });
      void qc.invalidateQueries({ queryKey: mixerKeys.all });
      void qc.invalidateQueries({ queryKey: ['invitations'] });
    },
  });
}

export type ChatData = InfiniteData<ChatPage, string | undefined>;

/** Chat history: page 0 is the newest; older pages follow. */
export const chatHistoryQuery = (id: string) =>
  infiniteQueryOptions({
    queryKey: mixerKeys.chat(id),
    queryFn: ({ pageParam, signal }) =>
      api<ChatPage>(`/api/mixers/${id}/messages${pageParam ? `?before=${encodeURIComponent(pageParam)}` : ''}`, { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    staleTime: Number.POSITIVE_INFINITY,
  });

export function useChatHistory(id: string, enabled: boolean) {
  return useInfiniteQuery({ ...chatHistoryQuery(id), enabled });
}

/** Adds a message (from realtime or our own send) to the newest page, once. */
export function appendChatMessage(data: ChatData | undefined, message: ChatMessage): ChatData | undefined {
  if (!data || data.pages.length === 0) return data;
  if (data.pages.some((p) => p.items.some((m) => m.id === message.id))) return data;
  const [newest, ...older] = data.pages;
  const items = [...newest.items, message].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  return { ...data, pages: [{ ...newest, items }, ...older] };
}

/** A moderated line (issue 30): hidden while we check (its words dropped) or removed from the history. */
export function moderateChatLine(data: ChatData | undefined, messageId: string, state: 'hidden' | 'removed'): ChatData | undefined {
  if (!data) return data;
  return {
    ...data,
    pages: data.pages.map((p) => ({
      ...p,
      items:
        state === 'removed'
          ? p.items.filter((m) => m.id !== messageId)
          : p.items.map((m) => (m.id === messageId ? { ...m, body: '', hidden: true } : m)),
    })),
  };
}

/** What a chat line send carries: the text, the line's own key (the same on a retry) and the line it answers. */
export interface ChatSend {
  body: string;
  clientKey: string;
  replyToId?: string;
  mentions?: string[];
  confirmed?: boolean;
}

/**
 * Sends a chat line over the socket when it is open (one frame, no request), else over HTTP.
 * The client key makes a retry return the first line, never a second one (issue 29).
 */
export function useSendMessage(id: string) {
  const qc = useQueryClient();
  const realtime = useRealtime();
  return useMutation({
    /** `confirmed`: "Send anyway" after Are you sure? (issue 30). */
    mutationFn: ({ body, clientKey, replyToId, mentions, confirmed }: ChatSend) => {
      const extras = { clientKey, replyToId, mentions, ...(confirmed ? { confirmed } : {}) };
      return (
        realtime?.sendChat(`mixer:${id}`, body, extras) ??
        api<ChatMessage>(`/api/mixers/${id}/messages`, { method: 'POST', body: { body, ...extras } })
      );
    },
    onSuccess: (message) => qc.setQueryData<ChatData>(mixerKeys.chat(id), (d) => appendChatMessage(d, message)),
  });
}

/** Every line of a loaded chat through `fn` (edits, unsends, reactions: the line and the quotes of it). */
export function mapChatLines(data: ChatData | undefined, fn: (m: ChatMessage) => ChatMessage): ChatData | undefined {
  if (!data) return data;
  return { ...data, pages: data.pages.map((p) => ({ ...p, items: p.items.map(fn) })) };
}

/** Edit, unsend and react on lines of this mixer; the cache follows each answer at once. */
export function useLineActions(id: string) {
  const qc = useQueryClient();
  const patch = (fn: (m: ChatMessage) => ChatMessage) => qc.setQueryData<ChatData>(mixerKeys.chat(id), (d) => mapChatLines(d, fn));
  type Change = { messageId: string; body: string; editedAt: string | null; unsentAt: string | null };
  const edit = useMutation({
    mutationFn: ({ messageId, body }: { messageId: string; body: string }) =>
      api<Change>(`/api/mixers/${id}/messages/${messageId}`, { method: 'PATCH', body: { body } }),
    onSuccess: (c) => patch((m) => applyLineChange(m, c)),
  });
  const unsend = useMutation({
    mutationFn: (messageId: string) => api<Change>(`/api/mixers/${id}/messages/${messageId}`, { method: 'DELETE' }),
    onSuccess: (c) => patch((m) => applyLineChange(m, c)),
  });
  const react = useMutation({
    mutationFn: ({ messageId, emoji }: { messageId: string; emoji: string; me: { id: string; firstName: string } }) =>
      api<{ messageId: string; emoji: string | null }>(`/api/mixers/${id}/messages/${messageId}/reactions`, {
        method: 'POST',
        body: { emoji },
      }),
    onSuccess: (r, vars) => patch((m) => applyLineReaction(m, r.messageId, vars.me, r.emoji)),
  });
  return { edit, unsend, react, patch };
}

/* The other half's API (fancies, blocks, reports), exactly as agreed. */

export function useFancied(mixerId: string, enabled: boolean) {
  return useQuery({
    queryKey: mixerKeys.fancies(mixerId),
    queryFn: () => api<{ fancied: string[] }>(`/api/fancies?mixerId=${encodeURIComponent(mixerId)}`),
    enabled,
  });
}

export type FancyResponse = { fancied: true; matchId: string | null; newMatch: boolean } | { fancied: false };

/** Fancies (or takes back a fancy for) a co-participant of a mixer: the one call the participant list and the after-mixer prompt share. */
export function sendFancy(mixerId: string, userId: string, fancy: boolean): Promise<FancyResponse> {
  const url = `/api/fancies/${encodeURIComponent(userId)}`;
  return fancy ? api<FancyResponse>(url, { method: 'PUT', body: { mixerId } }) : api<FancyResponse>(url, { method: 'DELETE' });
}

export function useToggleFancy(mixerId: string) {
  const qc = useQueryClient();
  const key = mixerKeys.fancies(mixerId);
  return useMutation({
    mutationFn: ({ userId, fancy }: { userId: string; fancy: boolean }) => sendFancy(mixerId, userId, fancy),
    onMutate: async ({ userId, fancy }) => {
      await qc.cancelQueries({ queryKey: key });
      const previous = qc.getQueryData<{ fancied: string[] }>(key);
      qc.setQueryData<{ fancied: string[] }>(key, (d) => {
        const list = (d?.fancied ?? []).filter((x) => x !== userId);
        return { fancied: fancy ? [...list, userId] : list };
      });
      return { previous };
    },
    onError: (_err, _vars, ctx: { previous?: { fancied: string[] } } | undefined) => qc.setQueryData(key, ctx?.previous),
    onSettled: () => qc.invalidateQueries({ queryKey: key }),
  });
}

export function useBlockMember(mixerId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => api(`/api/blocks`, { method: 'POST', body: { userId } }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: mixerKeys.detail(mixerId) });
      void qc.invalidateQueries({ queryKey: mixerKeys.chat(mixerId) });
      void qc.invalidateQueries({ queryKey: mixerKeys.lists() });
    },
  });
}
