// The entry page's small helpers: the card picker (rank then suit, or suit then rank, into the kick field
// being filled), a confirm on Undo, and one submission per tap. The page works without it.
(function () {
  "use strict";
  var CARD = /^(10|[2-9TJQKA])?([CDHS])?$/;

  function parse(value) {
    var m = CARD.exec((value || "").toUpperCase().replace(/\s+/g, "").replace(/^T/, "10"));
    return m ? { rank: m[1] || "", suit: m[2] || "" } : { rank: "", suit: "" };
  }

  function visible(el) {
    return !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length);
  }

  function setupPicker(form) {
    var picker = form.querySelector("[data-picker]");
    if (!picker) return;
    picker.hidden = false;
    var inputs = Array.prototype.slice.call(form.querySelectorAll("input.card-input"));
    var label = picker.querySelector("[data-picker-target]");
    var target = form.querySelector("input[name=kick]") || inputs[0];

    function labelOf(input) {
      var l = form.querySelector("label[for='" + input.id + "']");
      return l ? l.textContent : input.name;
    }

    function show() {
      inputs.forEach(function (i) { i.classList.toggle("picking", i === target); });
      if (label && target) label.textContent = labelOf(target);
      var card = parse(target ? target.value : "");
      picker.querySelectorAll("[data-rank]").forEach(function (b) {
        b.classList.toggle("on", b.getAttribute("data-rank") === card.rank);
      });
      picker.querySelectorAll("[data-suit]").forEach(function (b) {
        b.classList.toggle("on", b.getAttribute("data-suit") === card.suit);
      });
    }

    function advance() {
      // after a whole card, move on to the next empty kick field that is showing (a run of the pack)
      var kicks = inputs.filter(function (i) { return /^(kick|run_kick_\d+)$/.test(i.name) && visible(i); });
      var at = kicks.indexOf(target);
      for (var n = at + 1; n < kicks.length; n++) {
        if (!kicks[n].value) { target = kicks[n]; return; }
      }
    }

    inputs.forEach(function (input) {
      input.addEventListener("focus", function () { target = input; show(); });
      input.addEventListener("input", show);
    });
    picker.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button || !target) return;
      var card = parse(target.value);
      if (button.hasAttribute("data-rank")) card.rank = button.getAttribute("data-rank");
      if (button.hasAttribute("data-suit")) card.suit = button.getAttribute("data-suit");
      target.value = card.rank + card.suit;
      target.dispatchEvent(new Event("change", { bubbles: true }));
      var complete = card.rank && card.suit;
      show();
      if (complete) { advance(); show(); }
    });
    form.addEventListener("change", function (event) {
      if (event.target.name === "beg") { show(); }
    });
    show();
  }

  function setupOnce(form) {
    form.addEventListener("submit", function () {
      var button = form.querySelector("[data-once]");
      if (!button) return;
      window.setTimeout(function () { button.disabled = true; }, 0);
      window.setTimeout(function () { button.disabled = false; }, 8000);
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
