// The entry page's small helpers: the card picker (rank then suit, or suit then rank, into the card field
// being filled), a confirm on Undo, and one submission per tap. The page works without it.
(function () {
  "use strict";
  var CARD = /^(10|[2-9TJQKA])?([CDHS])?$/;
  var KICK = /^(kick|run_kick_\d+)$/; // the first kick, then the kick of each run of the pack

  function parse(value) {
    var m = CARD.exec((value || "").toUpperCase().replace(/\s+/g, "").replace(/^T/, "10"));
    return m ? { rank: m[1] || "", suit: m[2] || "" } : { rank: "", suit: "" };
  }

  function visible(el) {
    return !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length);
  }

  // The picker fills one field at a time, its "target". A whole card tapped (its rank and its suit, in either
  // order) moves the target on to the next kick still to fill; a tap of only a rank or a suit corrects that part
  // of the card and stays, so the other part can follow. Choosing "Run the pack" moves on from a kick already
  // given to the run's kick; choosing another beg hides the runs' kicks and brings the picker back to the kick.
  function setupPicker(form) {
    var picker = form.querySelector("[data-picker]");
    if (!picker) return;
    picker.hidden = false;
    var inputs = Array.prototype.slice.call(form.querySelectorAll("input.card-input"));
    var label = picker.querySelector("[data-picker-target]");
    var given = picker.querySelector("[data-picker-kicks]");
    var first = form.querySelector("input[name=kick]") || inputs[0];
    var target = null;
    var tapped = {}; // the parts of a card tapped since the target was chosen

    function labelOf(input) {
      var l = form.querySelector("label[for='" + input.id + "']");
      return l ? l.textContent : input.name;
    }

    function whole(input) {
      var card = parse(input.value);
      return !!(card.rank && card.suit);
    }

    function kicks() {
      return inputs.filter(function (i) { return KICK.test(i.name) && visible(i); });
    }

    // the first kick showing after ``after`` (or the first of all) that is not yet a whole card
    function openKick(after) {
      var list = kicks();
      var from = after ? list.indexOf(after) + 1 : 0;
      if (after && !from) return null;
      for (var n = from; n < list.length; n++) {
        if (!whole(list[n])) return list[n];
      }
      return null;
    }

    function choose(input) {
      target = input;
      tapped = {};
      show();
    }

    function show() {
      inputs.forEach(function (i) { i.classList.toggle("picking", i === target); });
      if (label && target) label.textContent = labelOf(target);
      if (given) {
        // the kicks so far, in order: a run's kick field may be below the fold while the picker is in view
        var list = kicks().filter(function (i) { return i.value; }).map(function (i) { return i.value.toUpperCase(); });
        given.textContent = list.length ? "Kicks: " + list.join(" \u2192 ") : "";
      }
      var card = parse(target ? target.value : "");
      picker.querySelectorAll("[data-rank]").forEach(function (b) {
        b.classList.toggle("on", b.getAttribute("data-rank") === card.rank);
      });
      picker.querySelectorAll("[data-suit]").forEach(function (b) {
        b.classList.toggle("on", b.getAttribute("data-suit") === card.suit);
      });
    }

    function put(text) {
      target.value = text;
      target.dispatchEvent(new Event("input", { bubbles: true }));
      target.dispatchEvent(new Event("change", { bubbles: true }));
    }

    inputs.forEach(function (input) {
      input.addEventListener("focus", function () { if (input !== target) choose(input); });
      input.addEventListener("click", function () { choose(input); });
      input.addEventListener("input", show);
    });
    picker.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button || !target) return;
      if (button.hasAttribute("data-picker-clear")) {
        put("");
        choose(target);
        return;
      }
      var card = parse(target.value);
      if (button.hasAttribute("data-rank")) { card.rank = button.getAttribute("data-rank"); tapped.rank = true; }
      if (button.hasAttribute("data-suit")) { card.suit = button.getAttribute("data-suit"); tapped.suit = true; }
      put(card.rank + card.suit);
      if (tapped.rank && tapped.suit) {
        var next = KICK.test(target.name) ? openKick(target) : null;
        choose(next || target);
      } else {
        show();
      }
    });
    // the form emptied for the next hand (offline_entry.js): the picker starts again at the kick
    form.addEventListener("entry:reset", function () { choose(openKick(null) || first); });
    form.addEventListener("change", function (event) {
      if (event.target.name !== "beg") return;
      if (!visible(target)) choose(openKick(null) || first);
      else if (KICK.test(target.name) && whole(target)) choose(openKick(target) || target);
      else show();
    });
    choose(openKick(null) || first);
  }

  function setupOnce(form) {
    form.addEventListener("submit", function (event) {
      var button = form.querySelector("[data-once]");
      if (!button) return;
      window.setTimeout(function () {
        // the queue (offline_entry.js) took the hand: the page stays, the button is for the next hand
        if (event.defaultPrevented) return;
        button.disabled = true;
        window.setTimeout(function () { button.disabled = false; }, 8000);
      }, 0);
    });
  }

  document.querySelectorAll("form.entry").forEach(function (form) {
    setupPicker(form);
    setupOnce(form);
  });
  document.querySelectorAll("form[data-confirm]").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (!window.confirm(form.getAttribute("data-confirm"))) event.preventDefault();
    });
  });
  // after a refused hand, bring the first error into view (below the sticky score)
  var firstError = document.querySelector(".errors.top, .field-errors");
  if (firstError) {
    var holder = firstError.closest("details");
    if (holder) holder.open = true;
    firstError.scrollIntoView({ block: "start" });
  }
  window.addEventListener("pageshow", function () {
    document.querySelectorAll("[data-once]").forEach(function (b) { b.disabled = false; });
  });
})();
