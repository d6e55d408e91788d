/** Web Push on this device (issue 20): the browser's subscription and the member's devices. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PushDevice, PushSettingsInput } from '../../../shared/schemas/push';
import { api } from '../../lib/api';

export { currentSubscription, disablePush, enablePush, pushSupport } from '../../lib/push-device';

export const pushDevicesKey = ['settings', 'push-devices'] as const;

export function usePushDevices(endpoint: string | null | undefined) {
  return useQuery({
    queryKey: [...pushDevicesKey, endpoint ?? ''],
    queryFn: async () =>
      (await api<{ devices: PushDevice[] }>(`/api/push/devices${endpoint ? `?endpoint=${encodeURIComponent(endpoint)}` : ''}`)).devices,
  });
}

export function useUpdatePushDevice() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, input }: { id: string; input: PushSettingsInput }) =>
      (await api<{ device: PushDevice }>(`/api/push/devices/${id}`, { method: 'PATCH', body: input })).device,
    onSuccess: () => qc.invalidateQueries({ queryKey: pushDevicesKey }),
  });
}

export function useRemovePushDevice() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => api(`/api/push/devices/${id}`, { method: 'DELETE' }),
    onSuccess: () => qc.invalidateQueries({ queryKey: pushDevicesKey }),
  });
}
