/* GesturePad's service worker: what makes the page installable as an app (over HTTPS), and
 * lets it open at once: the page's own files network first, the last copy when the network
 * fails. It never touches the WebSocket (/ws), the pairing status (/pairing), the certificate
 * (/ca.crt) or the trust page.
 *
 * A classic worker script (it imports nothing): registered without `type: "module"`, it also
 * runs in browsers that have no module service workers (Firefox before 147). */
'use strict';
const CACHE = 'gesturepad-page-v18';

/** The page's files, kept at install so that the installed app opens offline: the pages, their
 * look, and every ES module of js/ (a module the page imports but the cache lacks would stop
 * the page). tests/browser checks that this list and Public/ agree. */
const FILES = [
  './', 'index.html', 'watch.html', 'help.html', 'desktop.html', 'style.css', 'help.css', 'desktop.css', 'manifest.json', 'icon.svg',
  'icon-192.png', 'icon-512.png',
  'icon-maskable-512.png',
  'js/about.js', 'js/address.js', 'js/aead.js', 'js/batcher.js', 'js/connection.js', 'js/controls.js', 'js/desktop.js', 'js/desktop-feed.js', 'js/draw.js', 'js/feed-words.js', 'js/feed.js', 'js/gestures.js',
  'js/held.js', 'js/help.js', 'js/hint.js', 'js/keyboard.js', 'js/link.js', 'js/link-texts.js', 'js/marks.js', 'js/media.js', 'js/moves.js', 'js/numbers.js', 'js/pad.js',
  'js/pairing.js', 'js/phone.js', 'js/presenter.js', 'js/proof.js', 'js/secure.js', 'js/settings.js', 'js/sha256.js', 'js/state.js', 'js/status.js',
  'js/surface.js', 'js/wire.js', 'js/view.js', 'js/watch.js', 'js/x25519.js'
];

self.addEventListener('install', (event) => {
  self.skipWaiting();
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)));
});

self.addEventListener('activate', (event) => {
  // Older caches (an earlier list of files) go.
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  // Never /pairing either: its answer is live, and its address holds a token no cache may keep.
  if (url.pathname.startsWith('/ws') || url.pathname === '/pairing' || url.pathname === '/ca.crt' ||
      url.pathname.startsWith('/trust')) return;
  event.respondWith(fetch(request).then((response) => {
    if (response.ok) {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(request, copy));
    }
    return response;
  }, () => caches.match(request).then((cached) => cached || Response.error())));
});
