// Fancy's service worker (issue 20, decision 021). Stamped with the build id at build time
// (scripts/brand-assets.ts): a new deploy is a new worker, which drops the old caches.
// It caches only static, public files: the offline page and the hashed app assets. Never API
// answers, photos, or any page HTML (navigations always go to the network).
const BUILD = '__BUILD_ID__';
const CACHE = `fancy-${BUILD}`;
const OFFLINE = '/offline.html';
const PRECACHE = [OFFLINE, '/offline.js', '/theme-init.js', '/icons/icon-192.png', '/favicon.svg'];

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(PRECACHE.map((url) => new Request(url, { cache: 'reload' }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('fancy-') && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

const isHashedAsset = (url) => url.origin === self.location.origin && url.pathname.startsWith('/assets/');

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return;
  if (request.mode === 'navigate') {
    // Pages always come from the network (they may be private); offline, our own page instead.
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE).then((r) => r || Response.error())));
    return;
  }
  if (isHashedAsset(url)) {
    // Content-addressed files never change: the cache first, then the network (and keep a copy).
    event.respondWith(
      caches.open(CACHE).then((cache) =>
        cache.match(request).then(
          (hit) =>
            hit ||
            fetch(request).then((res) => {
              if (res.ok && res.type === 'basic') cache.put(request, res.clone());
              return res;
            }),
        ),
      ),
    );
    return;
  }
  if (PRECACHE.includes(url.pathname)) {
    event.respondWith(fetch(request).catch(() => caches.match(url.pathname).then((r) => r || Response.error())));
  }
});

// Web Push: the server sends { title, body, url, tag }, already discreet unless the member chose previews.
self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  const title = typeof data.title === 'string' && data.title ? data.title : 'Fancy';
  const url = typeof data.url === 'string' && data.url.startsWith('/') && !data.url.startsWith('//') ? data.url : '/home';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof data.body === 'string' ? data.body : 'You have a new notification',
      tag: typeof data.tag === 'string' ? data.tag : undefined,
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      data: { url },
    }),
  );
});

// A tap opens the right page, in an open Fancy tab when there is one.
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const path = event.notification.data?.url || '/home';
  const target = new URL(path, self.location.origin).href;
  const opening = self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
    const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
    if (open) {
      // Focusing can be refused (no user activation): the tab still goes to the page.
      return open
        .focus()
        .then(
          (focused) => focused || open,
          () => open,
        )
        .then((client) => {
          // The app navigates itself (no reload); a page without it gets a real navigation.
          client.postMessage({ type: 'fancy:navigate', url: path });
          return client;
        });
    }
    return self.clients.openWindow(target);
  });
  try {
    event.waitUntil(opening);
  } catch {
    // A click replayed by a test harness is not extendable; the work above runs regardless.
  }
});
