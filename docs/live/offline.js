// On every page: keep the site for offline use (the service worker sw.js, registered once this page is ready, so that
// filling its cache never slows the page's own calculators), and, on a page opened from disk, say why its
// calculators and trackers stay snapshots.
(() => {
  const root = new URL('../', document.currentScript.src);
  const state = window.besmOffline = { state: 'none', version: null };
  if (location.protocol === 'file:') {
    const why = ' <small class="besm-file-note">(Opened from a file on this device: browsers give such a page no Python '
      + 'worker, storage or offline copy, so it shows snapshots. Open the site from a web address, or serve its folder, '
      + 'e.g. <code>python3 -m http.server</code> there.)</small>';
    const mark = () => {
      for (const p of document.querySelectorAll('.besm-live-note .besm-live-text')) p.insertAdjacentHTML('beforeend', why);
    };
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', mark, { once: true });
    else mark();
    state.state = 'file';
    return;
  }
  if (!('serviceWorker' in navigator) || !window.isSecureContext) { state.state = 'unsupported'; return; }
  navigator.serviceWorker.addEventListener('message', ({ data }) => {
    if (data?.type === 'besm-offline') Object.assign(state, { state: 'ready', version: data.version });
  });
  const register = () => {
    state.state = 'installing';
    navigator.serviceWorker.register(new URL('sw.js', root), { scope: root.href }).then(async () => {
      await navigator.serviceWorker.ready;
      navigator.serviceWorker.controller?.postMessage('besm-version');
      // while this page is open, a word every 20 s keeps the service worker from stopping when idle (after 30 s): it
      // holds the compiled runtime for the next page or reload (see sw.js)
      setInterval(() => navigator.serviceWorker.controller?.postMessage('besm-hold'), 20_000);
    }).catch((e) => Object.assign(state, { state: 'failed', error: String(e) }));
  };
  const ready = () => {  // after this page's calculators are live (or have failed), or at once on a page with none
    const live = window.besmLive;
    if (!document.getElementById('besm-live-spec') || (live && live.state !== 'loading')) register();
    else setTimeout(ready, 300);
  };
  if (document.readyState === 'complete') ready();
  else addEventListener('load', ready, { once: true });
})();
