import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { MixerReadState } from '../../../shared/mentions';
import { api } from '../../lib/api';

const readStateKey = (mixerId: string) => ['mixers', 'read', mixerId] as const;

/** Where I stopped reading this mixer's chat, as it was when the chat opened (it is not refetched while open). */
export function useReadState(mixerId: string) {
  return useQuery({
    queryKey: readStateKey(mixerId),
    queryFn: ({ signal }) => api<MixerReadState>(`/api/mixers/${mixerId}/read`, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    retry: 1,
  });
}

const MARK_DELAY_MS = 800;

/**
 * Moves my read position to the newest line while I am looking at it: the chat scrolled to the
 * bottom and the tab visible. Once per line, shortly after it shows.
 */
export function useMarkRead(mixerId: string, lastId: string | undefined, atBottom: boolean) {
  const marked = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!lastId || !atBottom || marked.current === lastId) return;
    const mark = () => {
      if (document.visibilityState !== 'visible' || marked.current === lastId) return;
      marked.current = lastId;
      api(`/api/mixers/${mixerId}/read`, { method: 'PUT', body: { messageId: lastId } }).catch(() => {
        marked.current = undefined;
      });
    };
    const timer = setTimeout(mark, MARK_DELAY_MS);
    document.addEventListener('visibilitychange', mark);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', mark);
    };
  }, [mixerId, lastId, atBottom]);
}

/** The line between what I had read and what is new. */
export function NewMessagesDivider() {
  return (
    <li className="my-3 flex items-center gap-3" data-testid="new-messages-divider">
      <span className="h-px flex-1 bg-primary/50" aria-hidden />
      <span className="text-xs font-semibold uppercase tracking-wider text-primary">New messages</span>
      <span className="h-px flex-1 bg-primary/50" aria-hidden />
    </li>
  );
}
