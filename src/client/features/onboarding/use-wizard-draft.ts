import { useCallback, useEffect, useRef, useState } from 'react';
import { AUTOSAVE_MS } from '../../../shared/constants';
import { clampStep, emptyDraft, mergeDraft, reviveDraft, type WizardDraft } from '../../../shared/onboarding';
import { draftToPatch } from '../../../shared/onboarding-draft';
import type { PhotoRef } from '../../../shared/profile-texts';
import { fetchOwnProfile, saveDraft, saveDraftOnUnload } from './api';

const storageKey = (userId: string) => `onboarding_draft:${userId}`;

function readLocal(userId: string): WizardDraft | null {
  try {
    const raw = localStorage.getItem(storageKey(userId));
    return raw ? reviveDraft(JSON.parse(raw)) : null;
  } catch {
    return null;
  }
}

function writeLocal(userId: string, draft: WizardDraft) {
  try {
    localStorage.setItem(storageKey(userId), JSON.stringify(draft));
  } catch {
    // Storage full or unavailable: the server draft still has it.
  }
}

export function clearLocalDraft(userId: string) {
  try {
    localStorage.removeItem(storageKey(userId));
  } catch {
    // ignore
  }
}

export interface WizardDraftState {
  /** null while the saved profile loads. */
  draft: WizardDraft | null;
  /** Signed URLs (or preview object URLs) by storage key. */
  photos: Record<string, PhotoRef>;
  update(patch: Partial<WizardDraft> | ((d: WizardDraft) => Partial<WizardDraft>)): void;
  setPhotoRefs(refs: PhotoRef[]): void;
  /** Saves now (before leaving); resolves when done or failed (silently). */
  flush(): Promise<void>;
}

/**
 * The wizard's draft (spec §4): loaded from the saved profile merged with the browser copy
 * (non-empty saved values win), kept in the browser at once and saved to the server 1 s
 * after any change. In preview mode nothing is read or written.
 */
export function useWizardDraft(userId: string | null, preview: boolean): WizardDraftState {
  const [draft, setDraft] = useState<WizardDraft | null>(preview ? emptyDraft() : null);
  const [photos, setPhotos] = useState<Record<string, PhotoRef>>({});
  const furthest = useRef(0);
  const lastSent = useRef<string>('');
  const pending = useRef<ReturnType<typeof draftToPatch> | null>(null);
  const active = !preview && Boolean(userId);

  useEffect(() => {
    if (!active || !userId) return;
    let cancelled = false;
    const local = readLocal(userId);
    fetchOwnProfile()
      .then((saved) => {
        if (cancelled) return;
        const merged = mergeDraft(local, saved);
        furthest.current = Math.max(saved.onboardingStep, merged.step);
        const refs: Record<string, PhotoRef> = {};
        if (saved.avatar) refs[saved.avatar.key] = saved.avatar;
        for (const p of saved.photos) refs[p.key] = p;
        setPhotos(refs);
        setDraft(merged);
      })
      .catch((err) => {
        // Spec §8: load failures are silent; the browser copy (or a fresh start) carries on.
        console.warn('Failed to load the saved profile', err);
        if (cancelled) return;
        const d = local ?? emptyDraft();
        furthest.current = d.step;
        setDraft(d);
      });
    return () => {
      cancelled = true;
    };
  }, [active, userId]);

  const send = useCallback(async () => {
    const patch = pending.current;
    pending.current = null;
    if (!patch) return;
    const json = JSON.stringify(patch);
    if (json === lastSent.current) return;
    try {
      await saveDraft(patch);
      lastSent.current = json;
    } catch (err) {
      // Spec §8: autosave failures are silent.
      console.warn('Autosave failed', err);
    }
  }, []);

  // Browser copy at once; server copy 1 s after the last change.
  useEffect(() => {
    if (!active || !userId || !draft) return;
    writeLocal(userId, draft);
    furthest.current = Math.max(furthest.current, draft.step);
    pending.current = draftToPatch(draft, furthest.current);
    const timer = setTimeout(() => void send(), AUTOSAVE_MS);
    return () => clearTimeout(timer);
  }, [active, userId, draft, send]);

  // Leaving the page before the timer fires still saves.
  useEffect(() => {
    if (!active) return;
    const onHide = () => {
      const patch = pending.current;
      if (patch && JSON.stringify(patch) !== lastSent.current) {
        pending.current = null;
        saveDraftOnUnload(patch);
      }
    };
    window.addEventListener('pagehide', onHide);
    return () => window.removeEventListener('pagehide', onHide);
  }, [active]);

  const update = useCallback<WizardDraftState['update']>((patch) => {
    setDraft((d) => {
      if (!d) return d;
      const next = { ...d, ...(typeof patch === 'function' ? patch(d) : patch) };
      next.step = clampStep(next.step);
      return next;
    });
  }, []);

  const setPhotoRefs = useCallback((refs: PhotoRef[]) => {
    setPhotos((prev) => {
      const next = { ...prev };
      for (const r of refs) next[r.key] = r;
      return next;
    });
  }, []);

  const flush = useCallback(async () => {
    if (!active) return;
    await send();
  }, [active, send]);

  return { draft, photos, update, setPhotoRefs, flush };
}
