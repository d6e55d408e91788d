// Runs before first paint so the stored theme applies without a flash (kept outside the
// bundle and loaded synchronously; CSP forbids inline scripts).
(() => {
  try {
    const choice = localStorage.getItem('fancy-theme') || 'light';
    const dark = choice === 'dark' || (choice === 'system' && window.matchMedia('(prefers-color-scheme: dark)').matches);
    document.documentElement.classList.toggle('dark', dark);
    document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
  } catch {
    // Storage blocked: the light default stays.
  }
  // The browser's install offer can come before the app's code has run (a member page's scripts
  // start after its first paint, decision 028): kept here for src/client/lib/pwa.ts to take.
  window.addEventListener('beforeinstallprompt', (e) => {
    e.preventDefault();
    window.__fancyInstallOffer = e;
  });
})();
