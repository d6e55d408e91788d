import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChatMessage } from '../../../shared/realtime/events';
import type { HostView, NudgeAction } from '../../../shared/schemas/host';
import { api } from '../../lib/api';
import { useAuth } from '../../lib/auth';
import { useRealtimeEvents } from '../../lib/realtime';

export const hostKey = (mixerId: string) => ['host', mixerId] as const;

/** The host's side of a room for me: polls (with the counts I may see) and my nudge. */
export function useHostView(mixerId: string) {
  return useQuery({
    queryKey: hostKey(mixerId),
    queryFn: ({ signal }) => api<HostView>(`/api/mixers/${mixerId}/host`, { signal }),
    staleTime: 30_000,
  });
}

/**
 * Keeps the host view live: a poll opened or changed (in the mixer room) or my nudge came or
 * went (in my own room). The events carry no counts: each member reads their own view. My own
 * line in the room ends my nudge (the server offers it only until I have written).
 */
export function useHostEvents(mixerId: string) {
  const qc = useQueryClient();
  const me = useAuth().user?.id;
  useRealtimeEvents((event) => {
    if ((event.type === 'host.poll' || event.type === 'host.nudge') && event.mixerId === mixerId) {
      void qc.invalidateQueries({ queryKey: hostKey(mixerId) });
    }
    if (event.type === 'mixer.message' && event.message.mixerId === mixerId && me && event.message.sender?.id === me) {
      qc.setQueryData<HostView>(hostKey(mixerId), (v) => (v?.nudge ? { ...v, nudge: null } : v));
    }
  });
}

export function useVote(mixerId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ pollId, option }: { pollId: string; option: number }) =>
      api<HostView>(`/api/host/polls/${pollId}/vote`, { method: 'POST', body: { option } }),
    onSuccess: (view) => qc.setQueryData(hostKey(mixerId), view),
    onError: () => void qc.invalidateQueries({ queryKey: hostKey(mixerId) }),
  });
}

export function useNudgeAction(mixerId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (action: NudgeAction['action']) =>
      api<{ message: ChatMessage | null }>(`/api/mixers/${mixerId}/host/nudge`, { method: 'POST', body: { action } }),
    onSettled: () => {
      qc.setQueryData<HostView>(hostKey(mixerId), (v) => (v ? { ...v, nudge: null } : v));
      void qc.invalidateQueries({ queryKey: hostKey(mixerId) });
    },
  });
}
