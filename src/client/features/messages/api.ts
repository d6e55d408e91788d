import {
  type InfiniteData,
  infiniteQueryOptions,
  type QueryClient,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { DirectMessage } from '../../../shared/realtime/events';
import type { ConversationDetail, ConversationsPage, MessagesPage } from '../../../shared/messages-texts';
import { api } from '../../lib/api';
import { cursorPages, withCursor } from '../../lib/query';
import { applyLineChange, applyLineReaction } from '../chat';

export const messageKeys = {
  conversations: ['conversations'] as const,
  conversation: (id: string) => ['conversation', id] as const,
  messages: (id: string) => ['dm-messages', id] as const,
};

type Pages<T> = InfiniteData<T, string | null>;

export const conversationsQuery = infiniteQueryOptions({
  queryKey: messageKeys.conversations,
  queryFn: ({ pageParam, signal }) => api<ConversationsPage>(withCursor('/api/conversations', pageParam), { signal }),
  ...cursorPages,
});

export function useConversations() {
  return useInfiniteQuery(conversationsQuery);
}

export const conversationQuery = (id: string) =>
  queryOptions({
    queryKey: messageKeys.conversation(id),
    queryFn: ({ signal }) => api<ConversationDetail>(`/api/conversations/${id}`, { signal }),
  });

export function useConversation(id: string) {
  return useQuery(conversationQuery(id));
}

export const messagesQuery = (id: string) =>
  infiniteQueryOptions({
    queryKey: messageKeys.messages(id),
    queryFn: ({ pageParam, signal }) => api<MessagesPage>(withCursor(`/api/conversations/${id}/messages`, pageParam, 'before'), { signal }),
    ...cursorPages,
    // Live updates come over the socket; a reconnect refetches (lib/realtime).
    staleTime: Number.POSITIVE_INFINITY,
  });

export function useMessages(id: string) {
  return useInfiniteQuery(messagesQuery(id));
}

/** Adds a message to a loaded thread (newest page), once. */
export function upsertMessage(qc: QueryClient, message: DirectMessage) {
  qc.setQueryData<Pages<MessagesPage>>(messageKeys.messages(message.matchId), (data) => {
    if (!data?.pages.length) return data;
    if (data.pages.some((p) => p.messages.some((m) => m.id === message.id))) return data;
    const [first, ...rest] = data.pages;
    const messages = [...first.messages, message].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    return { ...data, pages: [{ ...first, messages }, ...rest] };
  });
}

/** Marks messages of a thread read in the cache: mine (they read them) or theirs (I read them). */
export function markReadInCache(qc: QueryClient, matchId: string, which: (m: DirectMessage) => boolean) {
  qc.setQueryData<Pages<MessagesPage>>(messageKeys.messages(matchId), (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((p) => ({
            ...p,
            messages: p.messages.map((m) => (!m.isRead && which(m) ? { ...m, isRead: true } : m)),
          })),
        }
      : data,
  );
}

function clearUnreadInList(qc: QueryClient, matchId: string) {
  qc.setQueryData<Pages<ConversationsPage>>(messageKeys.conversations, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((p) => ({
            ...p,
            conversations: p.conversations.map((c) => (c.id === matchId ? { ...c, unreadCount: 0 } : c)),
          })),
        }
      : data,
  );
}

/** A private message send: the text, its own key (the same on a retry) and the message it answers. */
export interface DirectSend {
  body: string;
  clientKey: string;
  replyToId?: string;
  confirmed?: boolean;
}

export function useSendMessage(matchId: string) {
  const qc = useQueryClient();
  return useMutation({
    /** `confirmed`: "Send anyway" after Are you sure? (issue 30). */
    mutationFn: ({ body, clientKey, replyToId, confirmed }: DirectSend) =>
      api<{ message: DirectMessage }>(`/api/conversations/${matchId}/messages`, {
        method: 'POST',
        body: { body, clientKey, replyToId, ...(confirmed ? { confirmed } : {}) },
      }),
    onSuccess: ({ message }) => {
      upsertMessage(qc, message);
      void qc.invalidateQueries({ queryKey: messageKeys.conversations });
    },
  });
}

/** Every message of a loaded thread through `fn` (edits, unsends, reactions). */
export function patchMessages(qc: QueryClient, matchId: string, fn: (m: DirectMessage) => DirectMessage) {
  qc.setQueryData<Pages<MessagesPage>>(messageKeys.messages(matchId), (data) =>
    data ? { ...data, pages: data.pages.map((p) => ({ ...p, messages: p.messages.map(fn) })) } : data,
  );
}

/** Edit, unsend and react on messages of this conversation; the cache follows each answer. */
export function useMessageActions(matchId: string) {
  const qc = useQueryClient();
  type Change = { messageId: string; body: string; editedAt: string | null; unsentAt: string | null };
  const base = `/api/conversations/${matchId}/messages`;
  const edit = useMutation({
    mutationFn: ({ messageId, body }: { messageId: string; body: string }) =>
      api<Change>(`${base}/${messageId}`, { method: 'PATCH', body: { body } }),
    onSuccess: (c) => patchMessages(qc, matchId, (m) => applyLineChange(m, c)),
  });
  const unsend = useMutation({
    mutationFn: (messageId: string) => api<Change>(`${base}/${messageId}`, { method: 'DELETE' }),
    onSuccess: (c) => {
      patchMessages(qc, matchId, (m) => applyLineChange(m, c));
      void qc.invalidateQueries({ queryKey: messageKeys.conversations });
    },
  });
  const react = useMutation({
    mutationFn: ({ messageId, emoji }: { messageId: string; emoji: string; me: { id: string; firstName: string } }) =>
      api<{ messageId: string; emoji: string | null }>(`${base}/${messageId}/reactions`, { method: 'POST', body: { emoji } }),
    onSuccess: (r, vars) => patchMessages(qc, matchId, (m) => applyLineReaction(m, r.messageId, vars.me, r.emoji)),
  });
  return { edit, unsend, react };
}

/** Marks the conversation read; `ids` are the unread messages on screen (a newer one stays unread). */
export function useMarkRead(matchId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (_ids: string[]) => api<{ read: number }>(`/api/conversations/${matchId}/read`, { method: 'POST' }),
    onSuccess: (_res, ids) => {
      const seen = new Set(ids);
      markReadInCache(qc, matchId, (m) => seen.has(m.id));
      clearUnreadInList(qc, matchId);
      void qc.invalidateQueries({ queryKey: ['matches'] });
    },
  });
}

/** After unmatch/block the lists and the thread header change. */
function refreshAfterEnding(qc: QueryClient, matchId?: string) {
  void qc.invalidateQueries({ queryKey: messageKeys.conversations });
  void qc.invalidateQueries({ queryKey: ['matches'] });
  if (matchId) void qc.invalidateQueries({ queryKey: messageKeys.conversation(matchId) });
}

export function useUnmatch(matchId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api<{ status: string }>(`/api/matches/${matchId}/unmatch`, { method: 'POST' }),
    onSuccess: () => refreshAfterEnding(qc, matchId),
  });
}

export function useBlock(matchId?: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => api<{ blocked: true }>('/api/blocks', { method: 'POST', body: { userId } }),
    onSuccess: () => refreshAfterEnding(qc, matchId),
  });
}

export function useUnblock(matchId?: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => api<{ blocked: false }>(`/api/blocks/${userId}`, { method: 'DELETE' }),
    onSuccess: () => refreshAfterEnding(qc, matchId),
  });
}
