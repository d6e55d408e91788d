import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AvailabilityView } from '../../../../shared/availability';
import type { AvailabilityInput } from '../../../../shared/schemas/availability';
import type { ReliabilityView } from '../../../../shared/reliability';
import { ApiError, api } from '../../../lib/api';

export const availabilityKey = ['profile', 'availability'] as const;

/** When I'm usually free and the topics I'd join (GET /api/profile/availability). */
export const availabilityQuery = queryOptions({
  queryKey: availabilityKey,
  queryFn: () => api<AvailabilityView>('/api/profile/availability'),
});

export function useAvailability(enabled = true) {
  return useQuery({ ...availabilityQuery, enabled });
}

export function useSaveAvailability() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: AvailabilityInput) => api<AvailabilityView>('/api/profile/availability', { method: 'PUT', body: input }),
    onSuccess: (view) => qc.setQueryData(availabilityKey, view),
  });
}

/** My own reliability note (GET /api/me/reliability): only ever mine. */
export const reliabilityQuery = queryOptions({
  queryKey: ['me', 'reliability'],
  queryFn: () => api<ReliabilityView>('/api/me/reliability'),
});

export function useReliability() {
  return useQuery(reliabilityQuery);
}

/** What a failed save says: the topics' own message when they were the problem, else the error's. */
export const saveErrorMessage = (err: unknown) =>
  err instanceof ApiError ? (err.fields.topicAsks ?? err.message) : (err as Error).message;
