import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { TOAST_LIMIT, TOAST_REMOVE_DELAY_MS } from '../../../shared/constants';

export interface ToastInput {
  title?: string;
  description?: string;
  variant?: 'default' | 'destructive';
  duration?: number;
  /** One button in the toast, e.g. "Open" for a notice that leads somewhere. */
  action?: { label: string; onSelect: () => void };
}

export interface ToastItem extends ToastInput {
  id: number;
  open: boolean;
}

/** What a toaster (components/ui/toaster.tsx) needs to render the queue. */
export interface ToastQueue {
  items: ToastItem[];
  dismiss(id: number): void;
  /** A mounted <ToastHost> renders the toasts; returns its unregister function. */
  addHost(): () => void;
  /** Counts the mounted Radix viewports; returns the unregister function. */
  addViewport(): () => void;
}

/** The toast viewport's place on screen (Radix's and the stand-in's). */
export const TOAST_VIEWPORT_CLASS =
  'print:hidden fixed bottom-20 right-0 z-[100] flex max-h-screen w-full flex-col gap-2 p-4 outline-none md:bottom-0 md:max-w-[420px]';

const ToastContext = createContext<(t: ToastInput) => void>(() => {});
const ToastQueueContext = createContext<ToastQueue | null>(null);

/** `toast({ title, description, variant })`, as in spec §8. */
export const useToast = () => useContext(ToastContext);
export const useToastQueue = () => useContext(ToastQueueContext);

// The Radix toaster is ~10 KiB gzipped (DESIGN §7): public and auth pages load it with their
// first toast; the member area mounts it with the shell (<ToastHost>).
let fallbackToaster: Promise<React.ComponentType> | undefined;
const loadFallbackToaster = () => {
  fallbackToaster ??= import('./toaster').then(
    (m) => m.default,
    (err: unknown) => {
      fallbackToaster = undefined; // Offline: try again with the next toast.
      throw err;
    },
  );
  return fallbackToaster;
};

let nextId = 1;

/**
 * The toast queue with the spec's constants: one at a time, 5 s, removed 1 s after dismissal,
 * swipe 50 px, F8 (Radix, in toaster.tsx). Rendered by the shell's <ToastHost> when one is
 * mounted, otherwise by a toaster loaded on demand here. Until a Radix viewport is mounted, an
 * empty stand-in region takes F8, so the hotkey works from the first paint as before.
 */
export function ToastProvider({ children }: { children: React.ReactNode }) {
  const [items, setItems] = useState<ToastItem[]>([]);
  const [hosts, setHosts] = useState(0);
  const [viewports, setViewports] = useState(0);
  // Once loaded (first toast), the fallback toaster renders the toasts while no host is mounted.
  const [Fallback, setFallback] = useState<React.ComponentType | null>(null);
  const standIn = useRef<HTMLOListElement>(null);
  const toast = useCallback((t: ToastInput) => {
    const id = nextId++;
    setItems((prev) => [{ ...t, id, open: true }, ...prev.map((p) => ({ ...p, open: false }))].slice(0, TOAST_LIMIT + 1));
    loadFallbackToaster().then(
      (component) => setFallback(() => component),
      () => {},
    );
  }, []);
  const dismiss = useCallback((id: number) => {
    setItems((prev) => prev.map((p) => (p.id === id ? { ...p, open: false } : p)));
    setTimeout(() => setItems((prev) => prev.filter((p) => p.id !== id)), TOAST_REMOVE_DELAY_MS);
  }, []);
  const addHost = useCallback(() => {
    setHosts((n) => n + 1);
    return () => setHosts((n) => n - 1);
  }, []);
  const addViewport = useCallback(() => {
    setViewports((n) => n + 1);
    return () => setViewports((n) => n - 1);
  }, []);
  const queue = useMemo<ToastQueue>(() => ({ items, dismiss, addHost, addViewport }), [items, dismiss, addHost, addViewport]);

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
        {hosts === 0 && Fallback && <Fallback />}
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
