// The offline page (served by the service worker when a page cannot load): tries again as soon
// as the network returns (the browser's online event, or a light check every few seconds, since
// not every network change fires the event), or when the button is pressed.
(() => {
  const retry = () => window.location.reload();
  window.addEventListener('online', retry);
  document.getElementById('retry')?.addEventListener('click', retry);
  setInterval(() => {
    fetch('/api/health', { cache: 'no-store' }).then(
      (res) => {
        if (res.ok) retry();
      },
      () => {},
    );
  }, 4000);
})();
