import { MessageCircleHeart, PartyPopper, X } from 'lucide-react';
import { Toast as T } from 'radix-ui';
import { useLayoutEffect, useRef } from 'react';
import { TOAST_DURATION_MS, TOAST_SWIPE_THRESHOLD } from '../../../shared/constants';
import { cn } from '../../lib/cn';
import { TOAST_VIEWPORT_CLASS, type ToastInput, useToastQueue } from './toast-queue';

/** The look of each variant. */
const VARIANT_CLASS = {
  default: 'border-border bg-card text-card-foreground',
  destructive: 'border-destructive bg-destructive text-destructive-foreground',
  celebration: 'border-transparent bg-linear-to-br from-pink-600 via-rose-600 to-orange-500 text-white shadow-2xl',
} as const;

/** The Radix toasts and their viewport (region "Notifications (F8)") for the queue of <ToastProvider>, loaded with the first toast. */
export default function Toaster() {
  const queue = useToastQueue();
  const viewport = useRef<HTMLOListElement>(null);
  const addViewport = queue?.addViewport;
  useLayoutEffect(() => {
    // Focus in the stand-in viewport this one replaces moves here.
    const own = viewport.current;
    const active = document.activeElement;
    if (active?.closest('[data-toast-viewport]') && !own?.contains(active)) own?.focus();
    return addViewport?.();
  }, [addViewport]);
  return (
    <T.Provider duration={TOAST_DURATION_MS} swipeThreshold={TOAST_SWIPE_THRESHOLD} swipeDirection="right" label="Notification">
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
            VARIANT_CLASS[t.variant ?? 'default'],
          )}
        >
          {t.variant === 'celebration' && (
            <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-white/20">
              <PartyPopper className="size-6" aria-hidden />
            </span>
          )}
          <div className="grid gap-1">
            {t.title && (
              <T.Title className={t.variant === 'celebration' ? 'font-display text-lg font-extrabold' : 'text-sm font-semibold'}>
                {t.title}
              </T.Title>
            )}
            {t.description && <T.Description className="text-sm opacity-90">{t.description}</T.Description>}
            {t.action && <ToastAction action={t.action} celebration={t.variant === 'celebration'} />}
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

/** A toast's one action: a button, or with `href` a real link that navigates within the app. */
function ToastAction({ action, celebration }: { action: NonNullable<ToastInput['action']>; celebration: boolean }) {
  const className = celebration
    ? 'mt-2 inline-flex w-fit items-center gap-2 rounded-full bg-white px-4 py-2 text-sm font-semibold text-rose-700 shadow hover:bg-rose-50'
    : 'mt-1 w-fit rounded-full border border-border px-3 py-1 text-sm font-semibold hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring';
  if (!action.href)
    return (
      <T.Action altText={action.label} onClick={action.onSelect} className={className}>
        {action.label}
      </T.Action>
    );
  return (
    <T.Action altText={action.label} asChild>
      <a
        href={action.href}
        className={className}
        onClick={(event) => {
          // A new tab or window is the browser's; a plain click stays in the app.
          if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
          event.preventDefault();
          action.onSelect();
        }}
      >
        {celebration && <MessageCircleHeart className="size-4" aria-hidden />}
        {action.label}
      </a>
    </T.Action>
  );
}
