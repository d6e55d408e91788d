import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CompleteProfileInput, OwnProfile, PhotoRef, ProfileDraftInput } from '../../../shared/schemas/profile';
import { api, postForm } from '../../lib/api';

export interface CatalogOption {
  id: number;
  label: string;
  sortOrder: number;
}
export interface CatalogInterest {
  id: number;
  name: string;
  category: string;
}

const CATALOG_STALE_MS = 5 * 60_000;

/** Spec §8: list failures are silent (console only) and the list stays empty. */
function silently<T>(label: string, load: () => Promise<T>) {
  return async () => {
    try {
      return await load();
    } catch (err) {
      console.warn(`Failed to load ${label}`, err);
      throw err;
    }
  };
}

export const genderOptionsQuery = queryOptions({
  queryKey: ['catalog', 'gender-options'],
  queryFn: silently('gender options', async () => (await api<{ options: CatalogOption[] }>('/api/catalog/gender-options')).options),
  staleTime: CATALOG_STALE_MS,
});

export const orientationOptionsQuery = queryOptions({
  queryKey: ['catalog', 'orientation-options'],
  queryFn: silently(
    'orientation options',
    async () => (await api<{ options: CatalogOption[] }>('/api/catalog/orientation-options')).options,
  ),
  staleTime: CATALOG_STALE_MS,
});

export const interestsQuery = queryOptions({
  queryKey: ['catalog', 'interests'],
  queryFn: silently('interests', async () => (await api<{ interests: CatalogInterest[] }>('/api/catalog/interests')).interests),
  staleTime: CATALOG_STALE_MS,
});

export const useGenderOptions = () => useQuery(genderOptionsQuery);
export const useOrientationOptions = () => useQuery(orientationOptionsQuery);
export const useInterests = () => useQuery(interestsQuery);

export const fetchOwnProfile = async () => (await api<{ profile: OwnProfile }>('/api/profile')).profile;

export const saveDraft = (patch: ProfileDraftInput) => api<{ profile: OwnProfile }>('/api/profile/draft', { method: 'PATCH', body: patch });

/** Sends a draft as the page goes away; the browser finishes the request on its own. */
export function saveDraftOnUnload(patch: ProfileDraftInput) {
  try {
    void fetch('/api/profile/draft', {
      method: 'PATCH',
      keepalive: true,
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(patch),
    }).catch(() => {});
  } catch {
    // Best effort only.
  }
}

export const completeProfile = (input: CompleteProfileInput) =>
  api<{ profile: OwnProfile }>('/api/profile/complete', { method: 'POST', body: input });

export const setLocation = (cityRegion: string) => api('/api/profile/location', { method: 'POST', body: { cityRegion } });
export const skipLocation = () => api('/api/profile/location/skip', { method: 'POST', body: {} });

export const submitSuggestions = (interests: string[]) => api('/api/interest-suggestions', { method: 'POST', body: { interests } });

export const removePhoto = (key: string) => {
  const id =
    key
      .split('/')
      .pop()
      ?.replace(/\.webp$/, '') ?? '';
  return api<{ photos: PhotoRef[] }>(`/api/profile/photos/${encodeURIComponent(id)}`, { method: 'DELETE' });
};

/** Multipart upload with the same error shape as `api()`; no message of its own (the step says what failed). */
function upload<T>(path: string, files: File[]): Promise<T> {
  const form = new FormData();
  for (const f of files) form.append('file', f, f.name);
  return postForm<T>(path, form, '');
}

export const uploadAvatar = (file: File) => upload<{ avatar: PhotoRef }>('/api/profile/avatar', [file]);
export const uploadPhotos = (files: File[]) => upload<{ photos: PhotoRef[]; added: number; dropped: number }>('/api/profile/photos', files);
