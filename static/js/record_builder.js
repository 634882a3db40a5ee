// Full entry, built card by card: tap each seat's dealt cards, the kick, the beg (and every run of the pack),
// then every card played. The builder only assembles the hand record (docs/hand-record.md) into the page's record
// textarea; the server fills players, dealer and score and the engine validates and scores it. Without this
// script the page is the plain paste-or-upload form.
(function () {
  "use strict";
  var root = document.getElementById("record-builder");
  if (!root) return;
  var form = root.closest("form");
  var textarea = form && form.querySelector("textarea[name=record]");
  if (!textarea) return;

  var RANKS = ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"];
  var ORDER = "23456789TJQKA"; // low to high (R17)
  var SUITS = [["C", "\u2663", "clubs"], ["D", "\u2666", "diamonds"], ["H", "\u2665", "hearts"], ["S", "\u2660", "spades"]];
  var SYMBOL = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  var HAND = 6, EXTRA = 3;

  var players = parseInt(root.getAttribute("data-players"), 10) || 4;
  var seatNames = [];
  try { seatNames = JSON.parse(document.getElementById("rb-seats").textContent); } catch (e) { seatNames = []; }
  var dealer, eldest, dealOrder;
  function setDealer(seat) { // the deal, the beg and the lead follow the seat that dealt (R3, R13)
    dealer = seat;
    eldest = (dealer + 1) % players;
    dealOrder = [];
    for (var i = 0; i < players; i++) dealOrder.push((eldest + i) % players);
  }
  setDealer(parseInt(root.getAttribute("data-dealer"), 10) || 0);
  // the form's dealer choice, when the table dealt out of turn: the builder deals from that seat
  var dealerChoice = form.querySelector("select[name=dealer]");
  if (dealerChoice) {
    dealerChoice.addEventListener("change", function () {
      setDealer(parseInt(dealerChoice.value, 10) || 0);
      render();
    });
  }

  function seatName(seat) {
    var name = seatNames[seat] || "Seat " + (seat + 1);
    return name + " (" + (seat % 2 === 0 ? "A" : "B") + ")";
  }
  function label(card) { return (card[0] === "T" ? "10" : card[0]) + SYMBOL[card[1]]; }
  function red(card) { return card[1] === "D" || card[1] === "H"; }

  // ---------------------------------------------------------------- the state: a list of taps, replayed
  var events = []; // {card: "AS"} | {beg: "stand"|"give"|"run"} | {next: "run"|"play"}
  var touched = false;

  function replay() {
    var s = { phase: "deal", hands: [], kick: null, beg: null, runs: [], plays: [], cursor: 0, used: {} };
    for (var p = 0; p < players; p++) s.hands.push([]);
    function newRun() {
      var extra = [];
      for (var p = 0; p < players; p++) extra.push([]);
      s.runs.push({ extra: extra, kick: null });
      s.cursor = 0;
      s.phase = "run-extra";
    }
    events.forEach(function (ev) {
      if (ev.card) s.used[ev.card] = true;
      if (s.phase === "deal" && ev.card) {
        var seat = dealOrder[s.cursor];
        s.hands[seat].push(ev.card);
        if (s.hands[seat].length === HAND && ++s.cursor === players) s.phase = "kick";
      } else if (s.phase === "kick" && ev.card) {
        s.kick = ev.card;
        s.phase = "beg";
      } else if (s.phase === "beg" && ev.beg) {
        s.beg = ev.beg;
        if (ev.beg === "run") newRun(); else s.phase = "play";
      } else if (s.phase === "run-extra" && ev.card) {
        var run = s.runs[s.runs.length - 1], to = dealOrder[s.cursor];
        run.extra[to].push(ev.card);
        if (run.extra[to].length === EXTRA && ++s.cursor === players) s.phase = "run-kick";
      } else if (s.phase === "run-kick" && ev.card) {
        s.runs[s.runs.length - 1].kick = ev.card;
        s.phase = "run-next";
      } else if (s.phase === "run-next" && ev.next) {
        if (ev.next === "run") newRun(); else s.phase = "play";
      } else if (s.phase === "play" && ev.card) {
        s.plays.push(ev.card);
      }
    });
    var lastKick = s.runs.length ? s.runs[s.runs.length - 1].kick : s.kick;
    s.trump = lastKick ? lastKick[1] : null;
    return s;
  }

  function owner(s, card) {
    for (var seat = 0; seat < players; seat++) {
      if (s.hands[seat].indexOf(card) >= 0) return seat;
      for (var r = 0; r < s.runs.length; r++) if (s.runs[r].extra[seat].indexOf(card) >= 0) return seat;
    }
    return -1;
  }

  function heldBy(s, seat) {
    var cards = s.hands[seat].slice();
    s.runs.forEach(function (run) { cards = cards.concat(run.extra[seat]); });
    return cards;
  }

  // Whose turn it is: the eldest leads (R13), then round the table; a trick's winner (R17) leads the next.
  // Only a guide for the scorekeeper: every card tapped is taken in order and the server checks it.
  function tricks(s) {
    var leader = eldest, trick = [], done = 0;
    s.plays.forEach(function (card) {
      trick.push(card);
      if (trick.length === players) {
        var best = 0;
        for (var n = 1; n < trick.length; n++) {
          var c = trick[n], b = trick[best];
          var beats = c[1] === b[1] ? ORDER.indexOf(c[0]) > ORDER.indexOf(b[0]) : c[1] === s.trump;
          if (beats) best = n;
        }
        var winner = owner(s, trick[best]);
        leader = winner >= 0 ? winner : (leader + best) % players;
        trick = [];
        done++;
      }
    });
    return { turn: (leader + trick.length) % players, trick: trick, done: done };
  }

  function record(s) {
    var rec = { hands: s.hands };
    if (s.kick) rec.kick = s.kick;
    if (s.beg) rec.beg = s.beg;
    if (s.beg === "run") rec.runs = s.runs.map(function (run) {
      return run.kick ? { extra: run.extra, kick: run.kick } : { extra: run.extra };
    });
    rec.plays = s.plays;
    return rec;
  }

  function pretty(rec) {
    // one line per list of cards: short enough to read on a phone
    return JSON.stringify(rec, null, 2).replace(/\[\s+("[^\]]*?)\s+\]/g, function (_, inner) {
      return "[" + inner.replace(/\s*\n\s*/g, " ") + "]";
    });
  }

  // ---------------------------------------------------------------- the page
  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text != null) node.textContent = text;
    return node;
  }
  function cardButton(card, extraClass) {
    var b = el("button", { type: "button", "class": "rb-card" + (red(card) ? " red" : "") + (extraClass || ""),
      "data-card": card, "aria-label": label(card) }, label(card));
    return b;
  }

  var status = el("p", { "class": "rb-status", "aria-live": "polite", "data-rb-status": "" });
  var turnLine = el("p", { "class": "rb-turn", "data-rb-turn": "" });
  var grid = el("div", { "class": "rb-grid", role: "group", "aria-label": "The pack" });
  SUITS.forEach(function (suit) {
    grid.appendChild(el("div", { "class": "rb-head" + (suit[0] === "D" || suit[0] === "H" ? " red" : ""),
      "aria-hidden": "true" }, suit[1]));
  });
  RANKS.forEach(function (rank) {
    SUITS.forEach(function (suit) { grid.appendChild(cardButton(rank + suit[0], " rb-pack")); });
  });
  var choices = el("div", { "class": "rb-choices" });
  var seats = el("div", { "class": "rb-seats" });
  var bar = el("div", { "class": "rb-bar" });
  var buttons = el("div", { "class": "rb-buttons" });
  var undo = el("button", { type: "button", "class": "secondary", "data-rb-undo": "" }, "Undo last card");
  var restart = el("button", { type: "button", "class": "secondary", "data-rb-reset": "" }, "Start over");
  buttons.appendChild(undo);
  buttons.appendChild(restart);
  bar.appendChild(turnLine);
  bar.appendChild(status);
  bar.appendChild(buttons);
  var summary = el("div", { "class": "rb-summary" });

  root.appendChild(summary);
  root.appendChild(choices);
  root.appendChild(seats);
  root.appendChild(grid);
  root.appendChild(bar);

  function choice(text, data) {
    var b = el("button", { type: "button", "class": "secondary rb-choice" }, text);
    Object.keys(data).forEach(function (k) { b.setAttribute("data-" + k, data[k]); });
    choices.appendChild(b);
  }

  function render() {
    var s = replay();
    var info = tricks(s);
    choices.textContent = "";
    seats.textContent = "";
    summary.textContent = "";
    turnLine.textContent = "";
    var gridOn = s.phase === "deal" || s.phase === "kick" || s.phase === "run-extra" || s.phase === "run-kick";
    grid.hidden = !gridOn;
    root.setAttribute("data-phase", s.phase);

    // what has been built so far, one line a seat
    dealOrder.forEach(function (seat) {
      var line = el("p", { "class": "rb-line" + (seat === dealer ? " dealer" : "") });
      line.appendChild(el("strong", {}, seatName(seat) + (seat === dealer ? " · dealer" : "") + ": "));
      line.appendChild(document.createTextNode(heldBy(s, seat).map(label).join(" ") || "\u2014"));
      summary.appendChild(line);
    });
    var kicks = [s.kick].concat(s.runs.map(function (r) { return r.kick; })).filter(Boolean);
    if (kicks.length) summary.appendChild(el("p", { "class": "rb-line" }, "Kick " + kicks.map(label).join(", then ")
      + (s.beg ? " · " + s.beg : "")));

    if (s.phase === "deal") {
      var seat = dealOrder[s.cursor];
      status.textContent = "Cards dealt to " + seatName(seat) + ": " + s.hands[seat].length + " of " + HAND;
    } else if (s.phase === "kick") {
      status.textContent = "Tap the kick (the card turned up)";
    } else if (s.phase === "beg") {
      status.textContent = "The eldest, " + seatName(eldest) + ": stand or beg?";
      choice("Stand", { "rb-beg": "stand" });
      choice("Begged: dealer gave one", { "rb-beg": "give" });
      choice("Begged: dealer ran the pack", { "rb-beg": "run" });
    } else if (s.phase === "run-extra") {
      var run = s.runs[s.runs.length - 1], to = dealOrder[s.cursor];
      status.textContent = "Run " + s.runs.length + ": 3 more to " + seatName(to) + ": " + run.extra[to].length
        + " of " + EXTRA;
    } else if (s.phase === "run-kick") {
      status.textContent = "Run " + s.runs.length + ": tap the new kick";
    } else if (s.phase === "run-next") {
      status.textContent = "Kicked " + label(s.runs[s.runs.length - 1].kick) + ". Run the pack again, or play?";
      choice("Run the pack again", { "rb-next": "run" });
      choice("Play the cards", { "rb-next": "play" });
    } else if (s.phase === "play") {
      var total = 0;
      for (var p = 0; p < players; p++) total += heldBy(s, p).length;
      var over = s.plays.length >= total;
      status.textContent = over ? "Every card is played: check the record and save the hand."
        : "Trick " + (info.done + 1) + (info.trick.length ? ": " + info.trick.map(label).join(" ") : "")
          + " \u00b7 " + s.plays.length + " of " + total + " cards played";
      if (!over) turnLine.textContent = "To play: " + seatName(info.turn);
      dealOrder.forEach(function (seat) {
        var box = el("div", { "class": "rb-seat" + (seat === info.turn && !over ? " turn" : ""), "data-seat": seat });
        box.appendChild(el("p", { "class": "rb-seat-name" }, seatName(seat) + (seat === info.turn && !over ? " \u2014 to play" : "")));
        var row = el("div", { "class": "rb-hand" });
        heldBy(s, seat).forEach(function (card) {
          var b = cardButton(card);
          if (s.plays.indexOf(card) >= 0) { b.disabled = true; b.classList.add("played"); }
          row.appendChild(b);
        });
        box.appendChild(row);
        seats.appendChild(box);
      });
    }
    grid.querySelectorAll("[data-card]").forEach(function (b) {
      var used = !!s.used[b.getAttribute("data-card")];
      b.disabled = used;
      b.classList.toggle("used", used);
    });
    undo.disabled = !events.length;
    restart.disabled = !events.length;
    if (touched) textarea.value = pretty(record(s));
  }

  function push(ev) {
    events.push(ev);
    touched = true;
    render();
  }

  root.addEventListener("click", function (event) {
    var b = event.target.closest("button");
    if (!b || b.disabled) return;
    event.preventDefault();
    if (b.hasAttribute("data-card")) push({ card: b.getAttribute("data-card") });
    else if (b.hasAttribute("data-rb-beg")) push({ beg: b.getAttribute("data-rb-beg") });
    else if (b.hasAttribute("data-rb-next")) push({ next: b.getAttribute("data-rb-next") });
    else if (b === undo) { events.pop(); touched = true; render(); }
    else if (b === restart) {
      if (!window.confirm("Start the hand over? The cards tapped so far are cleared.")) return;
      events = []; touched = true; render();
    }
  });

  // After a refused save the textarea holds what was built: pick it up again, so one wrong tap is one undo.
  function load(text) {
    var rec;
    try { rec = JSON.parse(text); } catch (e) { return false; }
    if (!rec || typeof rec !== "object" || !Array.isArray(rec.hands)) return false;
    var up = function (c) { return String(c).toUpperCase().replace(/^10/, "T"); };
    var list = [];
    dealOrder.forEach(function (seat) {
      (rec.hands[seat] || []).slice(0, HAND).forEach(function (c) { list.push({ card: up(c) }); });
    });
    if (rec.kick) list.push({ card: up(rec.kick) });
    if (rec.beg) list.push({ beg: rec.beg });
    if (rec.beg === "run" && Array.isArray(rec.runs)) {
      rec.runs.forEach(function (run, n) {
        if (n) list.push({ next: "run" });
        dealOrder.forEach(function (seat) {
          ((run.extra || [])[seat] || []).forEach(function (c) { list.push({ card: up(c) }); });
        });
        if (run.kick) list.push({ card: up(run.kick) });
      });
      if (Array.isArray(rec.plays) && rec.plays.length) list.push({ next: "play" });
    }
    (rec.plays || []).forEach(function (c) { list.push({ card: up(c) }); });
    events = list;
    return true;
  }

  if (textarea.value.trim() && load(textarea.value)) touched = false;
  textarea.addEventListener("input", function () { touched = false; });
  // A pasted record redraws the builder above the box on "change", which fires when the box loses the focus: on
  // the press that taps Save. Redrawing then would move Save from under the finger and the tap would miss, so the
  // redraw waits until the press is released and its click (the save) has gone through.
  var pressing = false, redrawWaiting = false;
  document.addEventListener("pointerdown", function () { pressing = true; }, true);
  function released() {
    pressing = false;
    if (redrawWaiting) window.setTimeout(redrawFromBox, 0);
  }
  document.addEventListener("pointerup", released, true);
  document.addEventListener("pointercancel", released, true);
  function redrawFromBox() {
    redrawWaiting = false;
    if (load(textarea.value)) { touched = false; render(); }
  }
  textarea.addEventListener("change", function () {
    if (redrawWaiting) return;
    redrawWaiting = true;
    // a touch's pointerup comes before the focus moves; its mousedown, mouseup and click run in this same task
    if (!pressing) window.setTimeout(redrawFromBox, 0);
  });
  root.hidden = false;
  render();
})();
