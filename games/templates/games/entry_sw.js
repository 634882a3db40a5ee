// The entry page's service worker (issue 13), served by games.offline.service_worker at the site's root.
// It keeps the scorekeeper's entry pages working with no signal, and shows the site's notifications (at the end):
// - an entry page (a GET navigation): hand by hand, the full record, game results or match totals, by an account
//   (/matches/<id>/enter/, …/enter/record/, …/games/, …/totals/) or the private link (/enter/<token>/,
//   …/record/, …/games/, …/totals/): network first, and the copy it last saw when the network fails; only a 200
//   answer of that very page, without a query, is kept (never a redirect to log in), and without its flash
//   messages (a "Game 2 saved" shown again by a reload with no signal would be a lie);
// - /static/…: cache first (the page's CSS, JS and icon);
// - everything else, every POST and every API answer, goes to the network untouched and is never cached.
// Logging in or out clears the kept pages, so that a phone shared by two scorekeepers never shows one the
// other's page. The page's CSRF token stays valid after a reload from the cache: it is a masked form of the
// long-lived CSRF cookie, which a reload does not change.
"use strict";

var VERSION = "{{ cache_version }}";
var PAGES = VERSION + "-pages";
var STATIC = VERSION + "-static";
var STATIC_PREFIX = "{{ static_prefix|escapejs }}";
var ENTRY_PAGE = /^\/(?:matches\/\d+\/(?:enter\/|enter\/record\/|games\/|totals\/)|enter\/[^/]+\/(?:record\/|games\/|totals\/)?)$/;
var MESSAGES = /<ul class="messages"[^>]*>[\s\S]*?<\/ul>/;
var ACCOUNT_CHANGE = /^\/accounts\/(login|logout)\//;

self.addEventListener("install", function () {
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf(VERSION + "-") !== 0;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

function keepable(response, url) {
  return response.status === 200 && !response.redirected && response.type === "basic" && !new URL(url).search;
}

// the page as kept: the same answer without the flash messages it was rendered with
function keep(url, response) {
  return response.text().then(function (html) {
    var headers = new Headers(response.headers);
    headers.delete("Content-Length");
    var copy = new Response(html.replace(MESSAGES, ""), { status: 200, statusText: response.statusText,
                                                         headers: headers });
    return caches.open(PAGES).then(function (cache) { return cache.put(url, copy); });
  });
}

function pageFirstFromNetwork(event) {
  var request = event.request;
  return fetch(request).then(function (response) {
    if (keepable(response, request.url)) event.waitUntil(keep(request.url, response.clone()).catch(function () {}));
    return response;
  }).catch(function () {
    return caches.open(PAGES).then(function (cache) {
      return cache.match(request.url, { ignoreSearch: true });
    }).then(function (kept) {
      return kept || new Response(
        "<!doctype html><meta name=viewport content='width=device-width'><title>No signal</title>" +
        "<p style='font:18px sans-serif;padding:1em'>No signal, and this page was not opened on this phone " +
        "before. Open it once with a connection to use it offline.</p>",
        { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
    });
  });
}

// the kept copy at once, and a fresh one kept for next time when the network answers (file names without a
// content hash, as in development, still get their new version on the next load)
function staticFirstFromCache(event) {
  var request = event.request;
  return caches.open(STATIC).then(function (cache) {
    return cache.match(request).then(function (kept) {
      var fresh = fetch(request).then(function (response) {
        if (response.ok && response.type === "basic") cache.put(request, response.clone());
        return response;
      });
      if (kept) {
        event.waitUntil(fresh.catch(function () {}));
        return kept;
      }
      return fresh;
    });
  });
}

// The page opened before this worker controlled it (its first visit) asks for itself and its assets to be kept,
// so that the very next reload works offline.
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type !== "keep" || !ENTRY_PAGE.test(new URL(data.page, self.location.origin).pathname)) return;
  var page = new Request(new URL(data.page, self.location.origin).href, { credentials: "same-origin" });
  event.waitUntil(Promise.all([
    fetch(page).then(function (response) {
      if (keepable(response, page.url)) return keep(page.url, response);
    }).catch(function () {}),
    caches.open(STATIC).then(function (cache) {
      return Promise.all((data.assets || []).filter(function (url) {
        return new URL(url, self.location.origin).pathname.indexOf(STATIC_PREFIX) === 0;
      }).map(function (url) { return cache.add(url).catch(function () {}); }));
    }),
  ]).then(function () {
    if (event.source) event.source.postMessage({ type: "kept", page: data.page });
  }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && ACCOUNT_CHANGE.test(url.pathname)) {
    caches.delete(PAGES);
    return;
  }
  if (request.method !== "GET") return;
  if (request.mode === "navigate" && ENTRY_PAGE.test(url.pathname)) {
    event.respondWith(pageFirstFromNetwork(event));
  } else if (url.pathname.indexOf(STATIC_PREFIX) === 0) {
    event.respondWith(staticFirstFromCache(event));
  }
});

// Notifications (notify, static/js/push.js): a push is shown by its tag, the notification's id, so a push sent
// again (a worker that died mid-send) replaces the first instead of showing twice. Tapping it opens its page
// (of this site only), in a window already open on it if there is one.
self.addEventListener("push", function (event) {
  var data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = { body: event.data ? event.data.text() : "" };
  }
  var options = { body: data.body || "", data: { url: data.url || "/" }, icon: STATIC_PREFIX + "img/entry-icon.svg" };
  if (data.tag) options.tag = data.tag;
  event.waitUntil(self.registration.showNotification(data.title || "All Fours League", options));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var target = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  if (target.origin !== self.location.origin) target = new URL(target.pathname + target.search, self.location.origin);
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
    for (var i = 0; i < windows.length; i++) {
      if (windows[i].url === target.href && "focus" in windows[i]) return windows[i].focus();
    }
    return self.clients.openWindow(target.href);
  }));
});
