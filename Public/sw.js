/* GesturePad's service worker: what makes the page installable as an app (over HTTPS), and
 * lets it open at once: the page's own files network first, the last copy when the network
 * fails. It never touches the WebSocket (/ws), the certificate (/ca.crt) or the trust page. */
'use strict';
var CACHE = 'gesturepad-page-v1';

self.addEventListener('install', function () { self.skipWaiting(); });
self.addEventListener('activate', function (event) { event.waitUntil(self.clients.claim()); });

self.addEventListener('fetch', function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  if (url.pathname.indexOf('/ws') === 0 || url.pathname === '/ca.crt' || url.pathname.indexOf('/trust') === 0) return;
  event.respondWith(fetch(request).then(function (response) {
    if (response.ok) {
      var copy = response.clone();
      caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
    }
    return response;
  }, function () {
    return caches.match(request).then(function (cached) { return cached || Response.error(); });
  }));
});
