// "Notify this phone" on the notification settings page (notify): asks the person's leave to show notifications,
// subscribes this browser with the site's VAPID public key through the service worker at the site's root
// (/entry-sw.js, which shows each push by its tag), and sends the subscription to the site; "Stop notifying this
// phone" unsubscribes it and tells the site. Nothing to install: the browser does it all.
(function () {
  "use strict";
  var box = document.getElementById("push-phone");
  if (!box) return;
  var on = box.querySelector("[data-push=on]");
  var off = box.querySelector("[data-push=off]");
  var status = box.querySelector(".push-status");

  function say(text) { status.textContent = text; }

  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say("This browser cannot show the site's notifications. You are still told by e-mail.");
    return;
  }

  function serverKey(base64url) {
    var padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = window.atob(padded);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function csrfToken() {
    var field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  function send(url, body) {
    return fetch(url, {
      method: "POST", credentials: "same-origin", body: JSON.stringify(body),
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
    }).then(function (response) {
      if (!response.ok) throw new Error("the site answered " + response.status);
      return response.json();
    });
  }

  function registration() {
    return navigator.serviceWorker.register(box.dataset.serviceWorker, { scope: "/" }).then(function () {
      return navigator.serviceWorker.ready;
    });
  }

  function show(subscribed) {
    on.hidden = subscribed;
    off.hidden = !subscribed;
  }

  function busy(button, yes) { button.disabled = yes; }

  registration().then(function (reg) { return reg.pushManager.getSubscription(); }).then(function (subscription) {
    show(!!subscription);
    if (Notification.permission === "denied") say("Notifications are blocked for this site in the browser's settings.");
  }).catch(function () { show(false); });

  on.addEventListener("click", function () {
    busy(on, true);
    say("");
    Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") throw new Error("denied");
      return registration();
    }).then(function (reg) {
      return reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: serverKey(box.dataset.vapidKey) });
    }).then(function (subscription) {
      return send(box.dataset.subscribe, subscription.toJSON());
    }).then(function () {
      window.location.reload();  // the page lists the phone, and says so
    }).catch(function (error) {
      busy(on, false);
      say(error && error.message === "denied"
        ? "Notifications were not allowed: allow them for this site in the browser's settings, then try again."
        : "This phone could not be subscribed (" + (error && error.message || "no answer") + "). Try again.");
    });
  });

  off.addEventListener("click", function () {
    busy(off, true);
    registration().then(function (reg) { return reg.pushManager.getSubscription(); }).then(function (subscription) {
      if (!subscription) return null;
      return send(box.dataset.unsubscribe, { endpoint: subscription.endpoint }).then(function () {
        return subscription.unsubscribe();
      });
    }).then(function () {
      window.location.reload();
    }).catch(function (error) {
      busy(off, false);
      say("This phone could not be unsubscribed (" + (error && error.message || "no answer") + "). Try again.");
    });
  });
})();
