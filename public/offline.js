// The offline page (served by the service worker when a page cannot load): tries again as soon
// as the network returns, or when the button is pressed.
(() => {
  const retry = () => window.location.reload();
  window.addEventListener('online', retry);
  document.getElementById('retry')?.addEventListener('click', retry);
})();
