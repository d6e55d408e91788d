import { X } from 'lucide-react';
import { Toast as T } from 'radix-ui';
import { createContext, useCallback, useContext, useMemo, useState } from 'react';
import { TOAST_DURATION_MS, TOAST_LIMIT, TOAST_REMOVE_DELAY_MS, TOAST_SWIPE_THRESHOLD } from '../../../shared/constants';
import { cn } from '../../lib/cn';

export interface ToastInput {
  title?: string;
  description?: string;
  variant?: 'default' | 'destructive';
  duration?: number;
}

interface ToastItem extends ToastInput {
  id: number;
  open: boolean;
}

const ToastContext = createContext<(t: ToastInput) => void>(() => {});

/** `toast({ title, description, variant })`, as in spec §8. */
export const useToast = () => useContext(ToastContext);

let nextId = 1;

/** Radix toasts with the spec's constants: one at a time, 5 s, removed 1 s after dismissal, swipe 50 px, F8. */
export function ToastProvider({ children }: { children: React.ReactNode }) {
  const [items, setItems] = useState<ToastItem[]>([]);
  const toast = useCallback((t: ToastInput) => {
    const id = nextId++;
    setItems((prev) => [{ ...t, id, open: true }, ...prev.map((p) => ({ ...p, open: false }))].slice(0, TOAST_LIMIT + 1));
  }, []);
  const dismiss = useCallback((id: number) => {
    setItems((prev) => prev.map((p) => (p.id === id ? { ...p, open: false } : p)));
    setTimeout(() => setItems((prev) => prev.filter((p) => p.id !== id)), TOAST_REMOVE_DELAY_MS);
  }, []);
  const value = useMemo(() => toast, [toast]);
  return (
    <ToastContext.Provider value={value}>
      <T.Provider duration={TOAST_DURATION_MS} swipeThreshold={TOAST_SWIPE_THRESHOLD} swipeDirection="right" label="Notification">
        {children}
        {items.map((t) => (
          <T.Root
            key={t.id}
            open={t.open}
            duration={t.duration}
            onOpenChange={(open) => !open && dismiss(t.id)}
            type={t.variant === 'destructive' ? 'foreground' : 'background'}
            data-variant={t.variant ?? 'default'}
            className={cn(
              'group pointer-events-auto relative flex w-full items-start gap-3 overflow-hidden rounded-2xl border p-4 pr-10 shadow-lg transition-all',
              'data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=cancel]:translate-x-0 data-[swipe=end]:translate-x-[var(--radix-toast-swipe-end-x)] data-[state=closed]:opacity-0',
              t.variant === 'destructive'
                ? 'border-destructive bg-destructive text-destructive-foreground'
                : 'border-border bg-card text-card-foreground',
            )}
          >
            <div className="grid gap-1">
              {t.title && <T.Title className="text-sm font-semibold">{t.title}</T.Title>}
              {t.description && <T.Description className="text-sm opacity-90">{t.description}</T.Description>}
            </div>
            <T.Close aria-label="Close" className="absolute right-2 top-2 rounded-full p-1.5 opacity-70 hover:opacity-100">
              <X className="size-4" aria-hidden />
            </T.Close>
          </T.Root>
        ))}
        <T.Viewport className="print:hidden fixed bottom-20 right-0 z-[100] flex max-h-screen w-full flex-col gap-2 p-4 outline-none md:bottom-0 md:max-w-[420px]" />
      </T.Provider>
    </ToastContext.Provider>
  );
}
