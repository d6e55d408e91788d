import { useQuery } from '@tanstack/react-query';
import type { MemberCardResponse } from '../../../shared/schemas/members';
import { api } from '../../lib/api';

export const memberCardKey = (id: string) => ['member-card', id] as const;

/** Another member's profile card; opening it counts a profile view (once a day, on the server). */
export function useMemberCard(id: string | null) {
  return useQuery({
    queryKey: memberCardKey(id ?? ''),
    queryFn: ({ signal }) => api<MemberCardResponse>(`/api/members/${encodeURIComponent(id ?? '')}`, { signal }),
    enabled: Boolean(id),
    select: (data) => data.member,
  });
}
