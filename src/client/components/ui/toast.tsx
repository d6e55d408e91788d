import { createContext, startTransition, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { TOAST_LIMIT, TOAST_REMOVE_DELAY_MS } from '../../../shared/constants';
import { TOAST_VIEWPORT_CLASS, type ToastInput, type ToastItem, type ToastQueue, ToastQueueContext } from './toast-queue';

const ToastContext = createContext<(t: ToastInput) => void>(() => {});

/** `toast({ title, description, variant })`, as in spec §8. */
export const useToast = () => useContext(ToastContext);

// The Radix toaster is ~12 KiB gzipped (DESIGN §7): every page loads it with its first toast,
// so no page waits for it before it can be used (issue 33).
let toaster: Promise<React.ComponentType> | undefined;
const loadToaster = () => {
  toaster ??= import('./toaster').then(
    (m) => m.default,
    (err: unknown) => {
      toaster = undefined; // Offline: try again with the next toast.
      throw err;
    },
  );
  return toaster;
};

let nextId = 1;

/**
 * The toast queue with the spec's constants: one at a time, 5 s, removed 1 s after dismissal,
 * swipe 50 px, F8 (Radix, in toaster.tsx). Rendered by a toaster loaded with the first toast.
 * Until its Radix viewport is mounted, an empty stand-in region takes F8, so the hotkey works
 * from the first paint as before.
 */
export function ToastProvider({ children }: { children: React.ReactNode }) {
  const [items, setItems] = useState<ToastItem[]>([]);
  const [viewports, setViewports] = useState(0);
  // Once loaded (first toast), the toaster renders the toasts.
  const [Toaster, setToaster] = useState<React.ComponentType | null>(null);
  const standIn = useRef<HTMLOListElement>(null);
  const toast = useCallback((t: ToastInput) => {
    const id = nextId++;
    setItems((prev) => [{ ...t, id, open: true }, ...prev.map((p) => ({ ...p, open: false }))].slice(0, TOAST_LIMIT + 1));
    loadToaster().then(
      (component) => setToaster(() => component),
      () => {},
    );
  }, []);
  const dismiss = useCallback((id: number) => {
    setItems((prev) => prev.map((p) => (p.id === id ? { ...p, open: false } : p)));
    setTimeout(() => setItems((prev) => prev.filter((p) => p.id !== id)), TOAST_REMOVE_DELAY_MS);
  }, []);
  // As a transition: re-rendering the queue's users at once would lengthen a commit on a slow phone (decision 029).
  const addViewport = useCallback(() => {
    startTransition(() => setViewports((n) => n + 1));
    return () => startTransition(() => setViewports((n) => n - 1));
  }, []);
  const queue = useMemo<ToastQueue>(() => ({ items, dismiss, addViewport }), [items, dismiss, addViewport]);

  // Radix's F8 hotkey, for the stand-in (Radix viewports listen themselves).
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.code === 'F8') standIn.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  return (
    <ToastContext.Provider value={toast}>
      <ToastQueueContext.Provider value={queue}>
        {children}
        {Toaster && <Toaster />}
        {viewports === 0 && (
          // Radix's empty viewport: the region and its list (focused by F8), not clickable.
          <section aria-label="Notifications (F8)" tabIndex={-1} style={{ pointerEvents: 'none' }}>
            <ol ref={standIn} tabIndex={-1} data-toast-viewport="" className={TOAST_VIEWPORT_CLASS} />
          </section>
        )}
      </ToastQueueContext.Provider>
    </ToastContext.Provider>
  );
}
