// Scribe's service worker (served at /sw.js, scope "/"): the app opens without the network.
//
// Pages of tables are fetched from the network first and kept as they come (the live
// script's refreshes included), so a phone that loses its Wi-Fi still opens its table as it
// last stood; any other page falls back to the offline page. Static files (their addresses
// carry their content's hash) are kept once fetched. Nothing but GET is ever answered from
// the cache: moves go to the server, or wait on the phone (static/offline.js).
"use strict";
var CACHE = "scribe-v1";
var OFFLINE = "/offline";

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return cache.addAll([OFFLINE, "/manifest.webmanifest"]);
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) { return name !== CACHE; })
      .map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

function isPage(request, url) {
  var accept = request.headers.get("Accept") || "";
  return request.mode === "navigate" || accept.indexOf("text/html") >= 0 ||
    /^\/tables\/[^/]+\/?$/.test(url.pathname);
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin ||
      url.pathname.indexOf("/api/") === 0 || /\/events$/.test(url.pathname)) {
    return;                                  // the network's, untouched
  }
  if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(caches.match(request).then(function (kept) {
      return kept || fetch(request).then(function (response) {
        if (response.ok) {
          var copy = response.clone();
          caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
        }
        return response;
      });
    }));
    return;
  }
  if (!isPage(request, url)) { return; }
  event.respondWith(fetch(request).then(function (response) {
    if (response.ok && url.pathname.indexOf("/tables/") === 0) {
      var copy = response.clone();
      caches.open(CACHE).then(function (cache) { cache.put(url.pathname, copy); });
    }
    return response;
  }).catch(function () {
    return caches.match(url.pathname).then(function (kept) {
      return kept || caches.match(OFFLINE);
    });
  }));
});
