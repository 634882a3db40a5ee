// The organiser's round page: while a round is being paired, poll the pairing status (JSON) and move the
// progress bar; when the pairing is done (or failed) reload the page, which then shows the draft (or why).
// The page works without it (a <noscript> refresh while the pairing runs).
(function () {
  "use strict";
  var BUSY = { queued: true, running: true };
  var box = document.querySelector("[data-pairing-status]");
  if (!box || !window.fetch) return;
  var url = box.getAttribute("data-pairing-status");
  var shownState = box.getAttribute("data-state");
  var shownVersion = box.getAttribute("data-version");
  var bar = box.querySelector("[data-pairing-progress]");
  var message = box.querySelector("[data-pairing-message]");
  var delay = 700;

  function show(status) {
    if (bar) {
      bar.value = status.progress;
      bar.textContent = Math.round(status.progress * 100) + "%";
    }
    if (message && status.message) message.textContent = status.message;
    box.className = box.className.replace(/\bstate-\S+/, "state-" + status.state);
  }

  function poll() {
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" }, cache: "no-store" })
      .then(function (response) {
        if (!response.ok) throw new Error("status " + response.status);
        return response.json();
      })
      .then(function (status) {
        show(status);
        if (BUSY[status.state]) {
          delay = Math.min(delay * 1.2, 2000);
          window.setTimeout(poll, delay);
        } else if (status.state !== shownState || String(status.version) !== shownVersion) {
          window.location.reload();
        }
      })
      .catch(function () { window.setTimeout(poll, 3000); });
  }

  if (BUSY[shownState]) window.setTimeout(poll, delay);
})();
