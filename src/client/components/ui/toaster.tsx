import { X } from 'lucide-react';
import { Toast as T } from 'radix-ui';
import { useLayoutEffect, useRef } from 'react';
import { TOAST_DURATION_MS, TOAST_SWIPE_THRESHOLD } from '../../../shared/constants';
import { cn } from '../../lib/cn';
import { TOAST_VIEWPORT_CLASS, useToastQueue } from './toast-queue';

/** The Radix toasts and their viewport (region "Notifications (F8)") for the queue of <ToastProvider>. */
function Toasts({ children }: { children?: React.ReactNode }) {
  const queue = useToastQueue();
  const viewport = useRef<HTMLOListElement>(null);
  const addViewport = queue?.addViewport;
  useLayoutEffect(() => {
    // Focus in the viewport this one replaces (the stand-in, or the fallback toaster) moves here.
    const own = viewport.current;
    const active = document.activeElement;
    if (active?.closest('[data-toast-viewport]') && !own?.contains(active)) own?.focus();
    return addViewport?.();
  }, [addViewport]);
  return (
    <T.Provider duration={TOAST_DURATION_MS} swipeThreshold={TOAST_SWIPE_THRESHOLD} swipeDirection="right" label="Notification">
      {children}
      {queue?.items.map((t) => (
        <T.Root
          key={t.id}
          open={t.open}
          duration={t.duration}
          onOpenChange={(open) => !open && queue.dismiss(t.id)}
          type={t.variant === 'destructive' ? 'foreground' : 'background'}
          data-variant={t.variant ?? 'default'}
          data-toast-id={t.id}
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
            {t.action && (
              <T.Action
                altText={t.action.label}
                onClick={t.action.onSelect}
                className="mt-1 w-fit rounded-full border border-border px-3 py-1 text-sm font-semibold hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring"
              >
                {t.action.label}
              </T.Action>
            )}
          </div>
          <T.Close aria-label="Close" className="absolute right-2 top-2 rounded-full p-1.5 opacity-70 hover:opacity-100">
            <X className="size-4" aria-hidden />
          </T.Close>
        </T.Root>
      ))}
      <T.Viewport ref={viewport} data-toast-viewport="" className={TOAST_VIEWPORT_CLASS} />
    </T.Provider>
  );
}

/**
 * Renders the toasts for the part of the app it wraps, and gives that part the Radix toast
 * provider (for custom toasts such as the mixers' match toast). Used by the member shell.
 */
export function ToastHost({ children }: { children: React.ReactNode }) {
  const addHost = useToastQueue()?.addHost;
  // Before paint, so the on-demand toaster of <ToastProvider> never shows the same toast too.
  useLayoutEffect(() => addHost?.(), [addHost]);
  return <Toasts>{children}</Toasts>;
}

/** The on-demand toaster of <ToastProvider> while no <ToastHost> is mounted. */
export default function FallbackToaster() {
  return <Toasts />;
}
