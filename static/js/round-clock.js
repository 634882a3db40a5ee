// A round's clock on a page (the scoresheet, the entry page, the round's page, the big screen): every element with
// data-clock-url shows the time left, counted down here between readings of the server's clock (every 20 s, and
// when the page comes back into view or the phone back online). The server sends the end as an instant and its own
// time, so every phone shows the same time whatever its own clock says. With no signal the last reading counts on.
(function () {
  "use strict";
  var REFRESH_MS = 20000;

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function label(seconds) {
    seconds = Math.max(0, Math.round(seconds));
    var minutes = Math.floor(seconds / 60);
    return minutes + ":" + pad(seconds % 60);
  }

  function Clock(element) {
    this.element = element;
    this.url = element.getAttribute("data-clock-url");
    this.reading = null;
    this.offset = 0; // server time minus this device's time, in ms
  }

  Clock.prototype.show = function () {
    var r = this.reading, el = this.element;
    if (!r || r.state === "none") { el.hidden = true; return; }
    el.hidden = false;
    var text, state = r.state;
    if (state === "running") {
      var left = (Date.parse(r.ends_at) - (Date.now() + this.offset)) / 1000;
      if (left <= 0) { state = "time_up"; text = "Time up: " + r.rule; }
      else { text = label(left) + " left"; }
    } else if (state === "paused") {
      text = "Paused: " + label(r.remaining) + " left";
    } else if (state === "not_started") {
      text = r.minutes + " minutes, not started";
    } else {
      text = "Time up: " + r.rule;
    }
    el.setAttribute("data-clock-state", state);
    if (el.textContent !== text) el.textContent = text;
  };

  Clock.prototype.fetch = function () {
    var clock = this;
    var request = new XMLHttpRequest();
    request.open("GET", clock.url);
    request.setRequestHeader("Accept", "application/json");
    request.onload = function () {
      if (request.status !== 200) return;
      try {
        var reading = JSON.parse(request.responseText);
        clock.offset = Date.parse(reading.server_now) - Date.now();
        clock.reading = reading;
        clock.show();
      } catch (ignored) { /* a reading that is not JSON: keep the last one */ }
    };
    request.send();
  };

  var clocks = [], seen = new WeakSet(), running = false;

  function each(method) {
    clocks = clocks.filter(function (c) { return document.contains(c.element); }); // a region replaced: its old clock goes
    clocks.forEach(function (c) { c[method](); });
  }

  function start() {
    document.querySelectorAll("[data-clock-url]").forEach(function (element) {
      if (seen.has(element)) return;
      seen.add(element);
      var clock = new Clock(element);
      clocks.push(clock);
      clock.fetch();
    });
    if (running || !clocks.length) return;
    running = true;
    setInterval(function () { each("show"); }, 1000);
    setInterval(function () { each("fetch"); }, REFRESH_MS);
    document.addEventListener("visibilitychange", function () { if (!document.hidden) each("fetch"); });
    window.addEventListener("online", function () { each("fetch"); });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
  // a live page's regions are replaced as they change: a clock in a new rendering starts too
  document.addEventListener("live:updated", start);
})();
