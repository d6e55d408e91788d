/**
 * The installable app on the client (issue 20, decision 021): registers the service worker,
 * keeps the browser's install offer for the account menu's "Install Fancy", tells iOS (which
 * has no offer) how to add Fancy to the Home Screen, and follows notification taps the
 * service worker hands to an open tab.
 */
import { useSyncExternalStore } from 'react';

interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

let offer: BeforeInstallPromptEvent | null = null;
const listeners = new Set<() => void>();
const changed = () => {
  for (const l of listeners) l();
};

/** A same-site path (never another origin) a notification may open. */
export const isAppPath = (url: unknown): url is string =>
  typeof url === 'string' && url.startsWith('/') && !url.startsWith('//') && !url.includes('\\');

/** Call once at start. `navigate` moves the app without a reload. */
export function startPwa(navigate: (path: string) => void) {
  if (typeof window === 'undefined') return;
  // An offer that came before this code ran, kept by public/theme-init.js.
  const early = (window as Window & { __fancyInstallOffer?: BeforeInstallPromptEvent }).__fancyInstallOffer;
  if (early) offer = early;
  window.addEventListener('beforeinstallprompt', (e) => {
    // Keep the offer for the account menu instead of the browser's own mini-bar.
    e.preventDefault();
    offer = e as BeforeInstallPromptEvent;
    changed();
  });
  window.addEventListener('appinstalled', () => {
    offer = null;
    changed();
  });
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.addEventListener('message', (e: MessageEvent) => {
    if (e.data?.type === 'fancy:navigate' && isAppPath(e.data.url)) navigate(e.data.url);
  });
  // Only the built app has a worker (the dev server serves no /sw.js).
  if (!import.meta.env.PROD) return;
  const register = () => void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {});
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}

const standalone = () =>
  typeof window !== 'undefined' &&
  (window.matchMedia?.('(display-mode: standalone)').matches || (navigator as Navigator & { standalone?: boolean }).standalone === true);

/** iPhone/iPad Safari, not yet on the Home Screen: no install offer, so a hint instead. */
export const needsIosHint = () =>
  typeof navigator !== 'undefined' &&
  !standalone() &&
  (/iPad|iPhone|iPod/.test(navigator.userAgent) || (navigator.platform === 'MacIntel' && navigator.maxTouchPoints > 1));

const subscribeNever = () => () => {};

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** `canInstall` while the browser offers installation; `install()` shows its prompt. */
export function useInstallOffer(): { canInstall: boolean; iosHint: boolean; install(): Promise<void> } {
  const current = useSyncExternalStore(
    subscribe,
    () => offer,
    () => null,
  );
  // Rendered on the server (decision 028) a page knows no device: hydrated without the hint, shown after.
  const ios = useSyncExternalStore(subscribeNever, needsIosHint, () => false);
  return {
    canInstall: current !== null,
    iosHint: current === null && ios,
    async install() {
      if (!offer) return;
      const shown = offer;
      await shown.prompt();
      await shown.userChoice.catch(() => undefined);
      offer = null;
      changed();
    },
  };
}
