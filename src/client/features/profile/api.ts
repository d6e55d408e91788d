import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ProfileEditInput } from '../../../shared/schemas/profile-edit';
import type { OwnProfile } from '../../../shared/profile-texts';
import type { SettingsView } from '../../../shared/schemas/settings';
import { api } from '../../lib/api';
import { fetchOwnProfile, removePhoto, uploadAvatar, uploadPhotos } from '../onboarding';

export const profileKey = ['profile', 'own'] as const;

export const ownProfileQuery = queryOptions({ queryKey: profileKey, queryFn: fetchOwnProfile });

/** The member's settings (GET /api/settings), shared with the settings page's cache entry. */
export const settingsQuery = queryOptions({
  queryKey: ['settings'],
  queryFn: async () => (await api<{ settings: SettingsView }>('/api/settings')).settings,
});

export function useOwnProfile() {
  return useQuery(ownProfileQuery);
}

/** Whether the member shows their city to others (Settings → Privacy), for the "as others see it" card. */
export function useShareCity() {
  return useQuery({ ...settingsQuery, select: (s) => s.shareCityRegion });
}

const setProfile = (qc: ReturnType<typeof useQueryClient>) => (profile: OwnProfile) => qc.setQueryData(profileKey, profile);

export function useEditProfile() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (input: ProfileEditInput) =>
      (await api<{ profile: OwnProfile }>('/api/me/profile', { method: 'PATCH', body: input })).profile,
    onSuccess: setProfile(qc),
  });
}

/** Every photo action answers with the whole profile (or the photo list), so the cache is simply replaced. */
export function usePhotoActions() {
  const qc = useQueryClient();
  const set = setProfile(qc);
  const refetch = () => qc.invalidateQueries({ queryKey: profileKey });
  // A new main photo is re-checked against a verified member's selfie; the badge may have gone.
  const recheckBadge = () => qc.invalidateQueries({ queryKey: ['verification'] });
  return {
    reorder: async (order: string[]) =>
      set((await api<{ profile: OwnProfile }>('/api/me/profile/photos', { method: 'PUT', body: { order } })).profile),
    makeMain: async (key: string) => {
      set((await api<{ profile: OwnProfile }>('/api/me/profile/photos/main', { body: { key } })).profile);
      await recheckBadge();
    },
    uploadAvatar: async (file: File) => {
      await uploadAvatar(file);
      await Promise.all([refetch(), recheckBadge()]);
    },
    removeAvatar: async () => {
      await api('/api/profile/avatar', { method: 'DELETE' });
      await Promise.all([refetch(), recheckBadge()]);
    },
    uploadPhotos: async (files: File[]) => {
      const res = await uploadPhotos(files);
      await refetch();
      return res;
    },
    removePhoto: async (key: string) => {
      await removePhoto(key);
      await refetch();
    },
  };
}
