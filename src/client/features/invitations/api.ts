import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InvitationAnswer, InvitationList } from '../../../shared/schemas/invitations';
import { api } from '../../lib/api';
import { useRealtimeEvents } from '../../lib/realtime';

export const invitationKeys = { all: ['invitations'] as const };

/** GET /api/invitations (also what Home preloads with its code). */
export const invitationsQuery = queryOptions({
  queryKey: invitationKeys.all,
  queryFn: ({ signal }) => api<InvitationList>('/api/invitations', { signal }),
  // Holds run out on the clock: keep the list fresh while it is open.
  refetchInterval: 60_000,
});

/** My invitations (issue 14), fresh when a mixer I'm invited to changes or a new invitation arrives. */
export function useInvitations() {
  const qc = useQueryClient();
  useRealtimeEvents((event) => {
    if (event.type === 'mixer.updated') void qc.invalidateQueries({ queryKey: invitationKeys.all });
  });
  return useQuery(invitationsQuery);
}

export function useAnswerInvitation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, answer }: { id: string; answer: 'accept' | 'decline' }) =>
      api<InvitationAnswer>(`/api/invitations/${id}/${answer}`, { method: 'POST', body: {} }),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: invitationKeys.all });
      void qc.invalidateQueries({ queryKey: ['mixers'] });
      void qc.invalidateQueries({ queryKey: ['stats'] });
    },
  });
}
