import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SessionView, SettingsView, TwoFactorEnrolment, UpdateSettingsInput } from '../../../shared/schemas/settings';
import { ApiError, api, NETWORK_ERROR } from '../../lib/api';
import { saveBlob } from '../../lib/download';

export const settingsKey = ['settings'] as const;
export const sessionsKey = ['settings', 'sessions'] as const;

export const settingsQuery = queryOptions({
  queryKey: settingsKey,
  queryFn: async () => (await api<{ settings: SettingsView }>('/api/settings')).settings,
});

export function useSettings() {
  return useQuery(settingsQuery);
}

/** Saves some choices; the switches move at once and move back if the save fails. */
export function useUpdateSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (input: UpdateSettingsInput) =>
      (await api<{ settings: SettingsView }>('/api/settings', { method: 'PATCH', body: input })).settings,
    onMutate: async (input) => {
      await qc.cancelQueries({ queryKey: settingsKey });
      const previous = qc.getQueryData<SettingsView>(settingsKey);
      if (previous) {
        const { shareCityRegion, ...prefs } = input;
        qc.setQueryData<SettingsView>(settingsKey, {
          ...previous,
          shareCityRegion: shareCityRegion ?? previous.shareCityRegion,
          preferences: { ...previous.preferences, ...Object.fromEntries(Object.entries(prefs).filter(([, v]) => v !== undefined)) },
        });
      }
      return { previous };
    },
    onError: (_err, _input, context) => {
      if (context?.previous) qc.setQueryData(settingsKey, context.previous);
    },
    onSuccess: (settings) => qc.setQueryData(settingsKey, settings),
  });
}

export function useSessions() {
  return useQuery({
    queryKey: sessionsKey,
    queryFn: async () => (await api<{ sessions: SessionView[] }>('/api/me/sessions')).sessions,
  });
}

export function useRevokeSession() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<{ ok: true }>(`/api/me/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: (_data, id) => qc.setQueryData<SessionView[]>(sessionsKey, (list) => list?.filter((s) => s.id !== id)),
    onSettled: () => qc.invalidateQueries({ queryKey: sessionsKey }),
  });
}

export function useRevokeOtherSessions() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api<{ ok: true; revoked: number }>('/api/me/sessions/revoke-others', { method: 'POST', body: {} }),
    onSettled: () => qc.invalidateQueries({ queryKey: sessionsKey }),
  });
}

export function useChangePassword() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { currentPassword: string; newPassword: string }) => api<{ ok: true }>('/api/me/password', { body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: sessionsKey }),
  });
}

export function useChangeEmail() {
  return useMutation({
    mutationFn: (body: { newEmail: string; password: string }) => api<{ ok: true; pendingEmail: string }>('/api/me/email', { body }),
  });
}

export const twoFactorApi = {
  start: (password: string) => api<TwoFactorEnrolment>('/api/me/two-factor/enable', { body: { password } }),
  verify: (code: string) => api<{ ok: true }>('/api/me/two-factor/verify', { body: { code } }),
  disable: (password: string) => api<{ ok: true }>('/api/me/two-factor/disable', { body: { password } }),
  backupCodes: (password: string) => api<{ backupCodes: string[] }>('/api/me/two-factor/backup-codes', { body: { password } }),
};

/** Re-enters the password: deleting the account and the export need it within a few minutes (docs/decisions/006). */
export const reauthenticate = (password: string) => api<{ ok: true }>('/api/me/reauthenticate', { body: { password } });

/** Fetches the export and hands it to the browser as a download named by the server. */
export async function downloadMyData(): Promise<string> {
  let res: Response;
  try {
    res = await fetch('/api/me/export', { credentials: 'same-origin', headers: { accept: 'application/json' } });
  } catch {
    throw new ApiError(0, 'network', NETWORK_ERROR);
  }
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { error?: { code: string; message: string } } | null;
    throw new ApiError(
      res.status,
      body?.error?.code ?? 'http',
      body?.error?.message ?? 'We could not prepare your data. Please try again.',
    );
  }
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'fancy-data.json';
  saveBlob(await res.blob(), name);
  return name;
}
