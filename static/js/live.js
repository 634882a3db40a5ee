// A live page: its regions ([data-live-region]) are brought up to date in place over a socket (live/consumers.py)
// as hands, results and publications are committed. Only what changed is touched, so what the reader is looking
// at stays where it is (the browser's scroll anchoring holds the rest), and each change is marked "updated" for a
// few seconds. With no socket (none here, or it failed) the page says so and offers a reload: it works as before.
(function () {
  "use strict";
  var regions = document.querySelectorAll("[data-live-region]");
  if (!regions.length) return;
  var applied = Number(document.body.getAttribute("data-live-version") || 0);
  var status = document.createElement("p");
  status.className = "live-status";
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  status.hidden = true;
  document.body.appendChild(status);
  var MARK_MS = 4000;
  var UNITS = "tr, li, p, h1, h2, h3, dd, dt, .live-unit";
  var retry = 1000;
  var changes = 0; // units marked by the message being applied
  var gone = false;

  function show(state, text, withReload) {
    status.hidden = false;
    status.setAttribute("data-live-state", state);
    status.textContent = text;
    if (withReload) {
      var link = document.createElement("a");
      link.href = location.href;
      link.textContent = "Reload";
      status.appendChild(document.createTextNode(" "));
      status.appendChild(link);
    }
  }

  function mark(node) {
    var el = node.nodeType === 1 ? node : node.parentElement;
    if (!el) return;
    var unit = el.closest(UNITS) || el;
    changes++;
    unit.classList.remove("live-updated");
    void unit.offsetWidth; // restart the animation of a unit changed twice in a row
    unit.classList.add("live-updated");
    window.setTimeout(function () { unit.classList.remove("live-updated"); }, MARK_MS);
  }

  function sameKind(a, b) {
    if (a.nodeType !== b.nodeType) return false;
    if (a.nodeType !== 1) return true;
    return a.tagName === b.tagName && (a.id || "") === (b.id || "");
  }

  function syncAttributes(old, neu) {
    Array.prototype.slice.call(old.attributes).forEach(function (attr) {
      if (!neu.hasAttribute(attr.name) && !(attr.name === "open" && old.tagName === "DETAILS") &&
          attr.name !== "class") old.removeAttribute(attr.name);
    });
    Array.prototype.slice.call(neu.attributes).forEach(function (attr) {
      if (attr.name === "class") return;
      if (old.getAttribute(attr.name) !== attr.value) { old.setAttribute(attr.name, attr.value); mark(old); }
    });
    var keep = old.classList.contains("live-updated");
    if (old.getAttribute("class") !== neu.getAttribute("class")) {
      old.className = neu.className;
      if (keep) old.classList.add("live-updated");
      mark(old);
    }
  }

  function morph(old, neu) {
    if (old.nodeType !== 1) {
      if (old.nodeValue !== neu.nodeValue) { old.nodeValue = neu.nodeValue; if (/\S/.test(neu.nodeValue)) mark(old); }
      return;
    }
    if (old.isEqualNode(neu)) return;
    // an element its own script keeps up to date (a round's clock): left as it is while the rendering still has it
    if (old.hasAttribute("data-live-own") && neu.hasAttribute("data-live-own") &&
        old.getAttribute("data-live-own") === neu.getAttribute("data-live-own")) return;
    syncAttributes(old, neu);
    morphChildren(old, neu);
  }

  // children matched from both ends (rows are added at the end or in the middle, rarely reordered); what is left
  // in the middle is replaced and marked
  function morphChildren(old, neu) {
    var a = Array.prototype.slice.call(old.childNodes), b = Array.prototype.slice.call(neu.childNodes);
    var head = 0, tail = 0;
    while (head < a.length && head < b.length && sameKind(a[head], b[head])) head++;
    while (tail < a.length - head && tail < b.length - head &&
           sameKind(a[a.length - 1 - tail], b[b.length - 1 - tail])) tail++;
    for (var n = 0; n < head; n++) morph(a[n], b[n]);
    for (var m = 0; m < tail; m++) morph(a[a.length - 1 - m], b[b.length - 1 - m]);
    var before = tail ? a[a.length - tail] : null;
    a.slice(head, a.length - tail).forEach(function (node) { old.removeChild(node); });
    b.slice(head, b.length - tail).forEach(function (node) {
      old.insertBefore(node, before);
      if (node.nodeType === 1) mark(node); else if (/\S/.test(node.nodeValue || "")) mark(old);
    });
  }

  function apply(message) {
    if (message.version <= applied) return;
    applied = message.version;
    changes = 0;
    Object.keys(message.regions).forEach(function (name) {
      var region = document.querySelector("[data-live-region='" + name + "']");
      if (!region) return;
      var fresh = document.createElement("div");
      fresh.innerHTML = message.regions[name];
      morphChildren(region, fresh);
    });
    document.body.setAttribute("data-live-version", String(applied));
    document.dispatchEvent(new CustomEvent("live:updated"));  // what a region's new content holds starts (a clock)
    if (changes) {
      var now = new Date();
      show("live", "Live · updated " + now.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }));
    }
  }

  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var socket;
    try {
      socket = new WebSocket(scheme + location.host + "/ws/live/?path=" +
                             encodeURIComponent(location.pathname + location.search));
    } catch (error) {
      show("off", "Live updates off.", true);
      return;
    }
    socket.onopen = function () { retry = 1000; show("live", "Live"); };
    socket.onmessage = function (event) {
      var message = JSON.parse(event.data);
      if (message.type === "regions") apply(message);
      else if (message.type === "gone") { gone = true; show("gone", "This page has changed.", true); }
    };
    socket.onclose = function (event) {
      if (gone || event.code === 4404 || event.code === 4401) { gone = true; show("gone", "This page is no longer live.", true); return; }
      show("off", "Live updates paused: reconnecting…", true);
      window.setTimeout(connect, retry);
      retry = Math.min(retry * 2, 30000);
    };
  }

  if (!window.WebSocket) { show("off", "Live updates off.", true); return; }
  connect();
})();
