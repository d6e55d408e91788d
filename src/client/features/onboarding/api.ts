import { useQuery } from '@tanstack/react-query';
import { isApiErrorBody } from '../../../shared/errors';
import type { CompleteProfileInput, OwnProfile, PhotoRef, ProfileDraftInput } from '../../../shared/schemas/profile';
import { ApiError, api, NETWORK_ERROR } from '../../lib/api';

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

export const useGenderOptions = () =>
  useQuery({
    queryKey: ['catalog', 'gender-options'],
    queryFn: silently('gender options', async () => (await api<{ options: CatalogOption[] }>('/api/catalog/gender-options')).options),
    staleTime: CATALOG_STALE_MS,
  });

export const useOrientationOptions = () =>
  useQuery({
    queryKey: ['catalog', 'orientation-options'],
    queryFn: silently(
      'orientation options',
      async () => (await api<{ options: CatalogOption[] }>('/api/catalog/orientation-options')).options,
    ),
    staleTime: CATALOG_STALE_MS,
  });

export const useInterests = () =>
  useQuery({
    queryKey: ['catalog', 'interests'],
    queryFn: silently('interests', async () => (await api<{ interests: CatalogInterest[] }>('/api/catalog/interests')).interests),
    staleTime: CATALOG_STALE_MS,
  });

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

/** Multipart upload with the same error shape as `api()`. */
async function upload<T>(path: string, files: File[]): Promise<T> {
  const form = new FormData();
  for (const f of files) form.append('file', f, f.name);
  let res: Response;
  try {
    res = await fetch(path, { method: 'POST', body: form, credentials: 'same-origin', headers: { accept: 'application/json' } });
  } catch {
    throw new ApiError(0, 'network', NETWORK_ERROR);
  }
  const data: unknown = await res.json().catch(() => undefined);
  if (!res.ok) {
    if (isApiErrorBody(data)) throw new ApiError(res.status, data.error.code, data.error.message, data.error.fields);
    throw new ApiError(res.status, 'http', '');
  }
  return data as T;
}

export const uploadAvatar = (file: File) => upload<{ avatar: PhotoRef }>('/api/profile/avatar', [file]);
export const uploadPhotos = (files: File[]) => upload<{ photos: PhotoRef[]; added: number; dropped: number }>('/api/profile/photos', files);
