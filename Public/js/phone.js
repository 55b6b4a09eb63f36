/* GesturePad: phone niceties of the touchpad — haptics, the screen kept awake while live, the
 * fullscreen button, no zooming or rubber band on iOS Safari, and the service worker that
 * makes the page installable over HTTPS. */

const HAPTICS_KEPT = 100;

/** The haptics: `buzz(pattern, why)` vibrates where the phone can (Android; iOS Safari has no
 * Vibration API) and browsers allow it (after the person touched the page); every pulse asked
 * for is recorded in the page state (`haptics`, `done: false` where nothing vibrated). */
export function haptics(state) {
  state.haptics = [];
  return function buzz(pattern, why) {
    let done = false;
    try {
      if (navigator.vibrate && (!navigator.userActivation || navigator.userActivation.hasBeenActive)) done = navigator.vibrate(pattern) !== false;
    } catch (e) { /* unsupported */ }
    state.haptics.push({ why: why || '', pattern, done });
    if (state.haptics.length > HAPTICS_KEPT) state.haptics.shift();
  };
}

/** The Screen Wake Lock: `wakeLock(want)` takes it (when visible) or lets it go; the page
 * state's `wakeLock` says whether it is held. */
export function wakeLocker(state) {
  let lock = null, wanted = false;
  return function wakeLock(want) {
    wanted = want;
    if (!('wakeLock' in navigator)) return;
    if (want && !lock && document.visibilityState === 'visible') {
      navigator.wakeLock.request('screen').then((l) => {
        lock = l;
        state.wakeLock = true;
        l.addEventListener('release', () => { lock = null; state.wakeLock = false; });
        if (!wanted) l.release().catch(() => {});
      }, () => { state.wakeLock = false; });
    } else if (!want && lock) {
      lock.release().catch(() => {});
      lock = null;
    }
  };
}

/** Shows the fullscreen button where the Fullscreen API exists (not on iPhone). */
export function bindFullscreen(button) {
  const root = document.documentElement;
  const requestFs = root.requestFullscreen || root.webkitRequestFullscreen;
  if (!requestFs) return;
  button.hidden = false;
  button.addEventListener('click', () => {
    const inFs = document.fullscreenElement || document.webkitFullscreenElement;
    const p = inFs ? (document.exitFullscreen || document.webkitExitFullscreen).call(document)
      : requestFs.call(root, { navigationUI: 'hide' });
    if (p && p.catch) p.catch(() => {});
  });
}

/** iOS Safari: no double-tap zoom, no pinch zoom, no rubber band, no callout on the surface;
 * what is in the elements `free` (the settings sheet, the media view's sliders) may still scroll
 * or slide. */
export function keepStill(surface, free) {
  const scrollable = { contains: (target) => free.some((el) => el && el.contains(target)) };
  const opts = { passive: false };
  for (const t of ['gesturestart', 'gesturechange', 'gestureend']) {
    document.addEventListener(t, (e) => e.preventDefault(), opts);
  }
  document.addEventListener('touchmove', (e) => {
    if (e.cancelable && !(scrollable && scrollable.contains(e.target))) e.preventDefault();
  }, opts);
  document.addEventListener('dblclick', (e) => e.preventDefault(), opts);
  document.addEventListener('contextmenu', (e) => { if (e.target === surface) e.preventDefault(); });
}

/** Installable as an app over HTTPS (`serve --tls`): registers the service worker (sw.js, which
 * never touches the WebSocket). Plain HTTP on a LAN address is no secure context: nothing to
 * do. The page state's `serviceWorker` says it is registered. */
export function registerServiceWorker(state) {
  if ('serviceWorker' in navigator && window.isSecureContext && location.protocol === 'https:') {
    navigator.serviceWorker.register('sw.js').then(() => { state.serviceWorker = true; }, () => {});
  }
}
