// The live page of an event played online (pages/templates/pages/event_live.html): every element with data-until
// (a player's time for the move, a table's start) counts down to that instant, once a second, in the server's time
// (the page's <meta name="server-now">: every phone shows the same time whatever its own clock says). The page
// itself is brought up to date by live.js; its clocks are left to this script between renderings (data-live-own),
// and one whose instant moved comes with the new rendering, counted from then on.
(function () {
  "use strict";
  var meta = document.querySelector('meta[name="server-now"]');
  var offset = meta ? Date.parse(meta.getAttribute("content")) - Date.now() : 0; // server time minus this device's
  if (isNaN(offset)) offset = 0;

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function label(seconds) {
    seconds = Math.max(0, Math.floor(seconds));
    return Math.floor(seconds / 60) + ":" + pad(seconds % 60);
  }

  function tick() {
    var now = Date.now() + offset;
    document.querySelectorAll("[data-until]").forEach(function (el) {
      var until = Date.parse(el.getAttribute("data-until"));
      if (isNaN(until)) return;
      var left = (until - now) / 1000;
      var text = label(left);
      if (el.textContent !== text) el.textContent = text;
      el.classList.toggle("short", left <= 10);
    });
  }

  tick();
  window.setInterval(tick, 1000);
  document.addEventListener("live:updated", tick);
})();
