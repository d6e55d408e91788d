/**
 * This browser's Web Push subscription (issue 20): support, subscribe, unsubscribe. No query
 * library here, so logging out can load it on demand to end the device's notifications.
 */
import type { PushDevice } from '../../shared/schemas/push';
import { api } from './api';

export type PushSupport = 'supported' | 'unsupported' | 'ios-install' | 'denied';

export function pushSupport(): PushSupport {
  if (typeof window === 'undefined') return 'unsupported';
  const hasApis = 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
  const ios = /iPad|iPhone|iPod/.test(navigator.userAgent);
  const standalone = (navigator as Navigator & { standalone?: boolean }).standalone === true;
  // iOS offers push only to Fancy added to the Home Screen.
  if (ios && !standalone) return 'ios-install';
  if (!hasApis) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  return 'supported';
}

async function registration(): Promise<ServiceWorkerRegistration | undefined> {
  const existing = await navigator.serviceWorker.getRegistration('/');
  if (existing) return existing;
  // The worker registers after load; ask for it now if it has not yet.
  return navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
}

/** This browser's push subscription, if it has one. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (pushSupport() === 'unsupported' || pushSupport() === 'ios-install') return null;
  // Only look: a browser without Fancy's worker has no subscription (and gets no worker from this).
  const reg = await navigator.serviceWorker.getRegistration('/');
  return (await reg?.pushManager.getSubscription()) ?? null;
}

const toKey = (base64url: string) => {
  const raw = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
};

/** Asks the browser, subscribes with our VAPID key and tells the server. */
export async function enablePush(): Promise<{ device: PushDevice; endpoint: string }> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') {
    throw new Error(
      permission === 'denied'
        ? 'Notifications are blocked for Fancy in this browser. Allow them in the site settings, then try again.'
        : 'Notifications were not allowed.',
    );
  }
  const { publicKey } = await api<{ publicKey: string | null }>('/api/push/key');
  if (!publicKey) throw new Error('Push notifications are not available on this server yet.');
  const reg = await registration();
  if (!reg) throw new Error('This browser could not start Fancy’s background service. Reload the page and try again.');
  await navigator.serviceWorker.ready;
  const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: toKey(publicKey) });
  const json = sub.toJSON() as { endpoint: string; keys: { p256dh: string; auth: string } };
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const { device } = await api<{ device: PushDevice }>('/api/push/devices', {
    body: { endpoint: json.endpoint, keys: json.keys, timeZone },
  });
  return { device, endpoint: json.endpoint };
}

/** Ends this browser's subscription here and on the server. */
export async function disablePush(): Promise<void> {
  const sub = await Promise.race([currentSubscription(), new Promise<null>((resolve) => setTimeout(() => resolve(null), 2000))]);
  if (!sub) return;
  await api('/api/push/unsubscribe', { body: { endpoint: sub.endpoint } });
  await sub.unsubscribe().catch(() => undefined);
}
