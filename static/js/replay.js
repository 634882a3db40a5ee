/* The replay page without reloads: the previous / next buttons, the step dots and the arrow keys show another
   step of the hand (all of them are in the page; the server chose the one shown first from ?trick=N), and the
   address follows, so that a reload or a shared link opens the same step. Without this script every button is a
   link to ?trick=N and the page works the same. Nothing here knows a rule: it only shows and hides sections. */
(function () {
  "use strict";
  var root = document.getElementById("replay");
  if (!root) return;
  var steps = Array.prototype.slice.call(root.querySelectorAll(".rp-step"));
  var last = steps.length - 1;
  var prev = document.getElementById("rp-prev");
  var next = document.getElementById("rp-next");
  var where = document.getElementById("rp-where");
  var dots = Array.prototype.slice.call(root.querySelectorAll("[data-goto]"));
  var current = parseInt(root.getAttribute("data-step"), 10) || 0;

  function link(a, step) {
    if (step < 0 || step > last) {
      a.removeAttribute("href");
      a.setAttribute("aria-disabled", "true");
    } else {
      var url = new URL(window.location.href);  // the page's other parameters (a private table's invite) kept
      url.searchParams.set("trick", String(step));
      a.setAttribute("href", url.search);
      a.removeAttribute("aria-disabled");
    }
  }

  function show(step, push) {
    if (isNaN(step) || step < 0 || step > last) return;
    current = step;
    steps.forEach(function (section, i) { section.hidden = i !== step; });
    dots.forEach(function (a) {
      if (parseInt(a.getAttribute("data-goto"), 10) === step) a.setAttribute("aria-current", "step");
      else a.removeAttribute("aria-current");
    });
    var dot = dots[step];
    if (dot && dot.scrollIntoView) dot.scrollIntoView({block: "nearest", inline: "nearest"});
    link(prev, step - 1);
    link(next, step + 1);
    where.textContent = steps[step].getAttribute("data-title");
    root.setAttribute("data-step", String(step));
    if (push && window.history && history.replaceState) {
      var url = new URL(window.location.href);
      url.searchParams.set("trick", String(step));
      history.replaceState({step: step}, "", url.toString());
    }
    var error = root.querySelector(".rp-error");
    if (error && push) error.hidden = true;  // the bad ?trick= was answered; a step chosen since is a good one
  }

  function go(event, step) {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;  // a new tab: the link's own way
    event.preventDefault();
    show(step, true);
  }

  prev.addEventListener("click", function (event) { go(event, current - 1); });
  next.addEventListener("click", function (event) { go(event, current + 1); });
  dots.forEach(function (a) {
    a.addEventListener("click", function (event) { go(event, parseInt(a.getAttribute("data-goto"), 10)); });
  });
  document.addEventListener("keydown", function (event) {
    var tag = (event.target && event.target.tagName) || "";
    if (/^(INPUT|TEXTAREA|SELECT)$/.test(tag) || event.metaKey || event.ctrlKey || event.altKey) return;
    var step = null;
    if (event.key === "ArrowRight") step = current + 1;
    else if (event.key === "ArrowLeft") step = current - 1;
    else if (event.key === "Home") step = 0;
    else if (event.key === "End") step = last;
    if (step === null || step < 0 || step > last) return;
    event.preventDefault();
    show(step, true);
  });
  show(current, false);  // the step the server chose: its dot scrolled into view
  root.classList.add("rp-live");
})();
