// The entry pages with no signal (issue 13): every hand, game result or match totals saved is kept on the phone
// (IndexedDB) before it is sent, then sent in order, one at a time, as the same form fields the plain form posts,
// with an Idempotency-Key made on the phone — a resend of an entry the server already has gets the stored answer,
// never a second one. One queue ("lane") a match for the hands (chalk or full record: one numbering), one for the
// game results, one for the totals; the page's config says which it enters (config.kind).
//
// A game result or the totals carries the "seen" stamp the server shipped in the page (what the page showed when
// it was typed): stored meanwhile by someone else, the server answers with a conflict and both versions.
//
// No rule of the game is here: the server's form and engine check and score every hand on arrival; the page
// shows the score the server confirmed and leaves the next dealer to it (a dealer equal to the one shown is not a
// deal out of turn). The only check made at once, a card's text, uses the card data the server ships in the page.
// Without this script (or without IndexedDB) the form posts as it always did.
(function () {
  "use strict";
  var configNode = document.getElementById("entry-offline");
  if (!configNode || !window.indexedDB || !window.fetch || !window.crypto || !crypto.randomUUID) return;
  var config = JSON.parse(configNode.textContent);
  var KIND = config.kind || "hand";
  var LANE = KIND === "game" ? "games" : KIND === "totals" ? "totals" : "hands";
  var BY_HAND = LANE === "hands";
  var form = document.getElementById("entry-form");
  var section = document.getElementById("queue");
  var cardsBox = document.querySelector("[data-queue-cards]");
  var listBox = section.querySelector("[data-queue-list]");
  var statusLine = document.querySelector("[data-queue-status]");
  var cards = config.cards;
  var PAGE = crypto.randomUUID(); // this page's life: a hand saved and refused at once goes back to the form
  var server = { next: config.next, games: config.games, totals: config.totals }; // what the server last said
  var state = { records: [], draining: false, sentSome: false, retryIn: 0, timer: null, dirty: false,
                replacing: null, saving: false };

  // the service worker keeps this page and its assets for a reload with no signal; on the first visit (the
  // page not yet under it) it is asked to fetch and keep them at once
  if ("serviceWorker" in navigator && config.service_worker) {
    var firstVisit = !navigator.serviceWorker.controller;
    navigator.serviceWorker.register(config.service_worker, { scope: "/" }).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (registration) {
      document.documentElement.setAttribute("data-offline-ready", firstVisit ? "asked" : "yes");
      if (!firstVisit || !registration.active) return;
      var assets = Array.prototype.map.call(document.querySelectorAll("link[rel=stylesheet][href], script[src], " +
        "link[rel=icon][href]"), function (el) { return el.href || el.src; });
      registration.active.postMessage({ type: "keep", page: window.location.pathname, assets: assets });
    }).catch(function () {});
    navigator.serviceWorker.addEventListener("message", function (event) {
      if (event.data && event.data.type === "kept") document.documentElement.setAttribute("data-offline-ready", "yes");
    });
  }

  // ------------------------------------------------------------------------- IndexedDB
  // version 1 kept hands only; version 2 adds the lane (hands, games, totals) and what an entry is (kind), and
  // marks the hands version 1 kept as chalk hands of the hands lane, so that none is lost by the upgrade
  var DB_NAME = "allfours-entry";
  var DB_VERSION = 2;
  var STORE = "hands";
  var dbPromise = null;

  function upgrade(request, oldVersion) {
    var store = oldVersion < 1 ? request.result.createObjectStore(STORE, { keyPath: "key" }) :
      request.transaction.objectStore(STORE);
    if (oldVersion < 1) store.createIndex("match", "match");
    if (oldVersion < 2) {
      store.createIndex("lane", ["match", "lane"]);
      store.openCursor().onsuccess = function (event) {
        var cursor = event.target.result;
        if (!cursor) return;
        var record = cursor.value;
        if (!record.lane) {
          record.lane = "hands";
          record.kind = record.kind || "hand";
          cursor.update(record);
        }
        cursor.continue();
      };
    }
  }

  function db() {
    if (!dbPromise) {
      dbPromise = new Promise(function (resolve, reject) {
        var request = indexedDB.open(DB_NAME, DB_VERSION);
        request.onupgradeneeded = function (event) { upgrade(request, event.oldVersion); };
        request.onsuccess = function () {
          // a newer page on this phone upgrades the database: this one lets go (and is reloaded to follow)
          request.result.onversionchange = function () { request.result.close(); window.location.reload(); };
          resolve(request.result);
        };
        request.onerror = function () { reject(request.error); };
        request.onblocked = function () { statusText("Close this match's other entry tabs to go on."); };
      });
    }
    return dbPromise;
  }

  function statusText(text) {
    if (!statusLine) return;
    statusLine.hidden = false;
    statusLine.textContent = text;
  }

  function withStore(mode, work) {
    return db().then(function (database) {
      return new Promise(function (resolve, reject) {
        var transaction = database.transaction(STORE, mode);
        var result = work(transaction.objectStore(STORE));
        transaction.oncomplete = function () { resolve(result && "result" in result ? result.result : undefined); };
        transaction.onerror = function () { reject(transaction.error); };
        transaction.onabort = function () { reject(transaction.error); };
      });
    });
  }

  function save(record) { return withStore("readwrite", function (store) { store.put(record); }); }
  function drop(key) { return withStore("readwrite", function (store) { store.delete(key); }); }

  // this match's entries of this page's lane kept by this scorekeeper (an account, or the private link), oldest
  // first
  function load() {
    return withStore("readonly", function (store) {
      return store.index("lane").getAll([config.match, LANE]);
    }).then(function (all) {
      state.records = (all || []).filter(function (r) { return r.owner === config.owner; })
        .sort(function (x, y) { return x.created_at - y.created_at || (x.key < y.key ? -1 : 1); });
      return state.records;
    });
  }

  // ------------------------------------------------------------------------- what was chalked, in words
  function valuesOf(fields) {
    var values = {};
    (fields || []).forEach(function (pair) { if (!(pair[0] in values)) values[pair[0]] = pair[1]; });
    return values;
  }

  function normalCard(text) {
    var out = (text || "").replace(/\s+/g, "");
    Object.keys(cards.aliases).forEach(function (symbol) { out = out.split(symbol).join(cards.aliases[symbol]); });
    return out.toUpperCase();
  }

  function cardText(text) {
    var card = normalCard(text);
    var suit = card.slice(-1);
    return cards.symbols[suit] ? card.slice(0, -1) + cards.symbols[suit] : card;
  }

  function sideText(value) { return value === "nobody" ? "nobody" : (value || "").replace("hang_", "").toUpperCase(); }

  function sideName(letter) { return letter === "a" ? config.sides[0] : letter === "b" ? config.sides[1] : "?"; }

  function pairText(label, values, a, b) {
    var x = values[a], y = values[b];
    if ((x === undefined || x === "") && (y === undefined || y === "")) return null;
    return label + " " + (x === "" || x === undefined ? "–" : x) + "–" + (y === "" || y === undefined ? "–" : y);
  }

  // a game result or the totals in words, from the form's field values (yours or theirs)
  function resultSummary(values, kind) {
    if (!values) return "nothing stored";
    var parts = [];
    if (kind === "game") parts.push(values.winner ? "won by " + sideName(values.winner) : "no winner");
    else parts.push(pairText("games", values, "games_a", "games_b"));
    parts.push(pairText("hang jacks", values, "hang_jacks_a", "hang_jacks_b"));
    parts.push(kind === "game" ? pairText("chalks", values, "score_a", "score_b") || "chalks not kept" :
      pairText("chalks", values, "chalks_a", "chalks_b") || "chalks not kept");
    if (values.reason) parts.push("why: " + values.reason);
    return parts.filter(Boolean).join(" \u00b7 ");
  }

  // what an entry is, in words: a hand's chalk, a full record, a game result or the totals
  function describe(values, kind) {
    if (kind === "game" || kind === "totals") return resultSummary(values, kind);
    if (kind === "record") return "a full hand record";
    return summary(values);
  }

  function titleOf(record) {
    var kind = record.kind || "hand";
    if (kind === "totals") return "Match totals";
    return (kind === "game" ? "Game " : "Hand ") + record.number;
  }

  // e.g. "kick 5♣ · stand · High A · Low B · Jack A · Game B", from the form's field values (yours or theirs)
  function summary(values) {
    if (!values) return "a full hand record";
    if (values.penalty === "misdeal") return "misdeal";
    var parts = [];
    var kicks = [values.kick].concat(Object.keys(values).filter(function (n) { return /^run_kick_\d+$/.test(n); })
      .sort().map(function (n) { return values[n]; })).filter(Boolean);
    if (values.beg !== "run") kicks = kicks.slice(0, 1);
    if (kicks.length) parts.push("kick " + kicks.map(cardText).join(" \u2192 "));
    if (values.beg) parts.push(values.beg === "none" ? "no beg" : values.beg === "give" ? "give one" :
      values.beg === "run" ? "run the pack" : values.beg);
    if (values.high) parts.push("High " + sideText(values.high) + (values.high_card ? " " + cardText(values.high_card) : ""));
    if (values.low) parts.push("Low " + sideText(values.low) + (values.low_card ? " " + cardText(values.low_card) : ""));
    if (values.jack) parts.push((values.jack.indexOf("hang") === 0 ? "Hang Jack " : "Jack ") + sideText(values.jack));
    if (values.game) parts.push(values.game === "tie" ? "Game tie" : "Game " + sideText(values.game));
    if (values.game_count_a || values.game_count_b) parts.push("counts " + values.game_count_a + "–" + values.game_count_b);
    if (values.penalty === "renege") parts.push("renege " + sideText(values.renege_side));
    return parts.join(" \u00b7 ") || "nothing chalked";
  }

  // ------------------------------------------------------------------------- the form
  function field(name) { return form ? form.elements.namedItem(name) : null; }

  function visible(el) { return !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length); }

  function clearOfflineErrors() {
    document.querySelectorAll("[data-offline-error]").forEach(function (el) { el.remove(); });
  }

  function showFieldError(name, reasons) {
    var holder = document.getElementById("f-" + name);
    var box = document.createElement("div");
    box.className = "field-errors";
    box.setAttribute("role", "alert");
    box.setAttribute("data-offline-error", "");
    reasons.forEach(function (reason) {
      var p = document.createElement("p");
      p.textContent = reason;
      box.appendChild(p);
    });
    if (!holder) {
      box.className = "errors top";
      form.insertBefore(box, form.firstChild);
      return box;
    }
    var label = holder.querySelector("label, legend, summary");
    holder.insertBefore(box, label ? label.nextSibling : holder.firstChild);
    var details = holder.closest("details");
    if (details) details.open = true;
    return box;
  }

  // a card's text checked at once against the card data the server shipped (R1); an empty field is left to the
  // engine, which knows when a card is needed
  function cardProblems() {
    var problems = [];
    form.querySelectorAll("input.card-input").forEach(function (input) {
      if (!input.value.trim() || (input.closest(".runs") && !visible(input))) return;
      var card = normalCard(input.value);
      var rank = card.slice(0, -1);
      var suit = card.slice(-1);
      if (cards.ranks.indexOf(rank) < 0 || cards.suits.indexOf(suit) < 0) {
        problems.push([input.name, "\u201c" + input.value + "\u201d is not a card: a rank (" +
          cards.ranks.filter(function (r) { return r !== "10"; }).reverse().map(function (r) {
            return r === "T" ? "10" : r;
          }).join(" ") + ") then a suit (" + cards.suits.join(" ") + "), e.g. JH or 10D"]);
      }
    });
    return problems;
  }

  // the form's fields as text; a hand record chosen as a file is kept as its text (a file is not kept on the
  // phone), in the record field when that was left empty
  function formFields() {
    var fields = [];
    var files = [];
    new FormData(form).forEach(function (value, name) {
      if (name === "csrfmiddlewaretoken") return;
      if (typeof value === "string") fields.push([name, value]);
      else if (value && value.size) files.push(value);
    });
    if (!files.length || !files[0].text) return Promise.resolve(fields);
    return files[0].text().then(function (text) {
      var typed = valuesOf(fields).record;
      if (typed && typed.trim()) return fields;
      return fields.filter(function (pair) { return pair[0] !== "record"; }).concat([["record", text]]);
    });
  }

  function fillForm(fields) {
    form.reset();
    fields.forEach(function (pair) {
      var control = field(pair[0]);
      if (!control) return;
      if (control instanceof RadioNodeList) {
        Array.prototype.forEach.call(control, function (radio) { radio.checked = radio.value === pair[1]; });
      } else if (control.type === "checkbox") {
        control.checked = true;
      } else {
        control.value = pair[1];
      }
    });
    form.dispatchEvent(new CustomEvent("entry:reset"));
  }

  // the next hand's number: after the last one kept on the phone, else where the server said; the next game's
  // likewise (a game typed again is a correction: the next new one follows the highest kept)
  function upcoming() {
    var last = state.records[state.records.length - 1];
    if (KIND === "game") {
      var next = server.games ? server.games.next : 1;
      state.records.forEach(function (r) { if (r.number >= next) next = r.number + 1; });
      return { number: next };
    }
    if (!BY_HAND) return null;
    if (last) return { game: last.game, number: last.number + 1 };
    return server.next ? { game: server.next.game, number: server.next.number } : null;
  }

  // what the page showed of the game (or the totals) being typed: the server's stamp, or the entry kept before
  // it for the same game, whose stamp is known once it is stored ("queued" until then)
  function seenFor(number, self) {
    var before = state.records.filter(function (r) { return r !== self && r.number === number; });
    if (before.length) return "queued";
    if (KIND === "totals") return (server.totals && server.totals.seen) || "none";
    return (server.games && server.games.seen[String(number)]) || "none";
  }

  function showUpcoming() {
    if (!form) return;
    if (!BY_HAND) {
      var nextGame = upcoming();
      if (nextGame && !state.replacing && !state.dirty && field("number")) field("number").value = nextGame.number;
      return;
    }
    var next = upcoming();
    if (!next) return;
    var numberField = field("number");
    if (!state.replacing) numberField.value = next.number;
    var shown = state.replacing ? Number(numberField.value) : next.number;
    var button = form.querySelector(".savebar button[type=submit]");
    button.textContent = "Save hand " + shown + (state.replacing ? " (edited)" : "");
    var mid = document.querySelectorAll(".scorebar .sb-mid span");
    mid.forEach(function (span) {
      if (/^Hand \d+$/.test(span.textContent)) span.textContent = "Hand " + shown;
      if (/^Game \d+$/.test(span.textContent)) span.textContent = "Game " + next.game;
    });
    var dealer = document.querySelector("#f-dealer summary strong");
    if (dealer) {
      dealer.textContent = state.records.length ? "as the server decides" :
        (server.next && server.next.dealer_label) || dealer.textContent;
    }
  }

  function resetForm() {
    fillForm([]);
    var runs = document.getElementById("runs");
    if (runs) runs.classList.remove("show");
    document.querySelectorAll("form.entry .field-errors, form.entry .errors.top").forEach(function (el) {
      el.remove();
    });
    state.replacing = null;
    state.dirty = false;
    showUpcoming();
  }

  function onSubmit(event) {
    event.preventDefault();
    if (state.saving) return;
    clearOfflineErrors();
    var problems = cardProblems();
    if (problems.length) {
      var first = null;
      problems.forEach(function (p) { first = first || showFieldError(p[0], [p[1]]); });
      first.scrollIntoView({ block: "center" });
      return;
    }
    state.saving = true;
    var replaced = state.records.filter(function (r) { return r.key === state.replacing; })[0];
    formFields().then(function (fields) {
      var values = valuesOf(fields);
      var number = KIND === "totals" ? 0 : Number(values.number);
      if (!BY_HAND) {
        fields = fields.filter(function (pair) { return pair[0] !== "seen"; });
        fields.push(["seen", replaced ? valuesOf(replaced.fields).seen : seenFor(number)]);
      }
      var next = upcoming() || { game: 1, number: number };
      var record = {
        key: crypto.randomUUID(), match: config.match, owner: config.owner, lane: LANE, kind: KIND,
        url: config.enter, fields: fields, number: number, game: replaced ? replaced.game : next.game,
        created_at: replaced ? replaced.created_at : Date.now(), state: "queued",
        page: state.records.length || navigator.onLine === false ? null : PAGE, errors: null, theirs: null,
      };
      return (replaced ? drop(replaced.key) : Promise.resolve()).then(function () { return save(record); });
    }).then(load).then(function () {
      state.saving = false;
      resetForm();
      render();
      window.scrollTo(0, 0);
      drain();
    }, function (error) {
      state.saving = false;
      showFieldError(KIND === "totals" ? "__all__" : "number", ["This phone could not keep what you typed (" +
        error + "): nothing was sent. Try again, or reload the page."]);
    });
  }

  // ------------------------------------------------------------------------- sending, in order
  function csrfToken() {
    var cookie = document.cookie.split("; ").filter(function (c) { return c.indexOf("csrftoken=") === 0; })[0];
    if (cookie) return decodeURIComponent(cookie.slice("csrftoken=".length));
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function post(url, fields, key) {
    var body = new FormData();
    fields.forEach(function (pair) { body.append(pair[0], pair[1]); });
    var headers = { "Accept": "application/json", "X-Entry-Queue": "1", "X-CSRFToken": csrfToken() };
    if (key) headers["Idempotency-Key"] = key;
    return fetch(url, { method: "POST", body: body, headers: headers, credentials: "same-origin" })
      .then(function (response) {
        var isJson = (response.headers.get("Content-Type") || "").indexOf("application/json") === 0;
        if (!isJson || response.redirected) {
          return { status: response.status, data: null, unreadable: true };
        }
        return response.json().then(function (data) { return { status: response.status, data: data }; });
      });
  }

  // a field as the page's form names it (e.g. "Games won · Lions"), else its name in words
  function labelOf(name) {
    var legend = document.querySelector("#f-" + name + " > legend"); // a row of toggles (High, Low, …)
    if (legend) return legend.textContent.trim();
    var control = field(name);
    var label = control && control.id ? document.querySelector("label[for='" + control.id + "']") : null;
    return label ? label.textContent.trim() : name.replace(/_/g, " ");
  }

  function reasonsOf(data, status) {
    if (!data && status === 404) {
      return ["The server no longer opens this match's entry page (a revoked link, or the match was removed): ask " +
        "the organiser, then tap Send again or discard the hand."];
    }
    if (!data) {
      return [status === 403 || status === 200 ?
        "The server did not take the hand: the sign-in or the page's security token has expired. Open this " +
        "page with a connection (log in again if asked), then tap Send again." :
        "The server did not answer as expected (HTTP " + status + "). Tap Send again."];
    }
    var reasons = [];
    Object.keys(data.errors || {}).forEach(function (name) {
      (data.errors[name] || []).forEach(function (reason) {
        reasons.push(name === "__all__" || name === "number" ? reason : labelOf(name) + ": " + reason);
      });
    });
    return reasons.length ? reasons : ["refused (HTTP " + status + ")"];
  }

  // the game moved on (a hand sent won it): the hands kept for that game go to the next one, in order
  function followServer(next) {
    if (!next) return Promise.resolve();
    server.next = next;
    var moved = state.records.filter(function (r) { return r.state === "queued" && r.game !== next.game; });
    return Promise.all(moved.map(function (r, index) {
      r.game = next.game;
      r.number = next.number + index;
      r.fields = r.fields.map(function (pair) { return pair[0] === "number" ? ["number", String(r.number)] : pair; });
      return save(r);
    }));
  }

  function showScore(next, hand) {
    var score = next ? next.score : hand ? [hand.score_a_after, hand.score_b_after] : null;
    if (!score) return;
    var a = document.querySelector("[data-score=a]");
    var b = document.querySelector("[data-score=b]");
    if (a) a.textContent = score[0];
    if (b) b.textContent = score[1];
  }

  function retryLater() {
    state.retryIn = Math.min(state.retryIn ? state.retryIn * 2 : 2000, 60000);
    window.clearTimeout(state.timer);
    state.timer = window.setTimeout(drain, state.retryIn);
  }

  // where an entry goes: kept with it (the hands of version 1 were chalk hands, of this page's route)
  function urlOf(record) {
    return record.url || config.enter;
  }

  // the results the server confirmed in an answer: the games (their next number, their stamps) or the totals
  function followResults(data) {
    if (data.games) server.games = data.games;
    if (KIND === "totals" && data.stored) server.totals = { seen: data.stored.seen };
  }

  // an entry typed over one kept before it for the same game (or the totals): that one is stored or set aside
  // now, so the page saw what the server now has
  function resolveSeen(record) {
    if (BY_HAND || valuesOf(record.fields).seen !== "queued") return Promise.resolve();
    var seen = seenFor(record.number, record);
    record.fields = record.fields.map(function (pair) { return pair[0] === "seen" ? ["seen", seen] : pair; });
    return save(record);
  }

  function sendOne(record) {
    record.sending = true;
    render();
    return resolveSeen(record).then(function () {
      return post(urlOf(record), record.fields, record.key);
    }).then(function (answer) {
      record.sending = false;
      var data = answer.data;
      if (answer.status >= 500) throw new Error("server error " + answer.status);
      if (answer.status === 201 && data && data.stored) {
        state.retryIn = 0;
        state.sentSome = true;
        followResults(data);
        return drop(record.key).then(load).then(function () { return true; });
      }
      if (data) followResults(data);
      if (answer.status === 201 && data && data.hand) {
        state.retryIn = 0;
        state.sentSome = true;
        showScore(data.next, data.hand);
        return drop(record.key).then(load).then(function () { return followServer(data.next); })
          .then(function () { return true; });
      }
      if (data && data.next !== undefined) {
        server.next = data.next;
        showScore(data.next, null);
      }
      var refusedAtOnce = record.page === PAGE && !state.dirty && state.records.length === 1;
      if (refusedAtOnce && answer.status === 422) {
        // the hand just typed, refused with nothing else waiting: the form comes back with the reasons next to
        // its fields, as without this script (the plain POST renders the page the server would have)
        return drop(record.key).then(function () {
          fillForm(record.fields);
          form.submit();
          return false;
        });
      }
      if (data && data.conflict && data.theirs) {
        record.state = "conflict";
        record.theirs = data.theirs;
      } else {
        record.state = "refused";
      }
      record.errors = reasonsOf(data, answer.status);
      record.page = null;
      return save(record).then(function () { return false; });
    }, function () {
      record.sending = false;
      record.page = null; // sent at least once: a later refusal is shown on its card, not in the form
      return save(record).then(function () { throw new Error("no signal"); });
    });
  }

  function drainNow() {
    return load().then(function loop() {
      var head = state.records[0];
      if (!head || head.state !== "queued") return;
      // the phone knows it has no network: wait for the "online" event (or the retry timer) instead of trying
      if (navigator.onLine === false) throw new Error("no signal");
      return sendOne(head).then(function (sent) { render(); if (sent) return loop(); });
    }).catch(function (error) {
      if (!(error instanceof Error && error.message === "no signal")) console.error(error);
      retryLater();
    }).then(function () {
      render();
      if (!state.records.length && state.sentSome && !state.dirty && !state.replacing) {
        window.location.replace(window.location.pathname); // the server's state: the last hands, the undo, …
      } else {
        showUpcoming();
      }
    });
  }

  // one queue a match, even with the page open twice on the phone
  function drain() {
    if (state.draining) return;
    state.draining = true;
    var run = navigator.locks ? function () {
      return navigator.locks.request("allfours-entry-" + config.match + (BY_HAND ? "" : "-" + LANE), drainNow);
    } : drainNow;
    run().then(function () { state.draining = false; }, function () { state.draining = false; retryLater(); });
  }

  // ------------------------------------------------------------------------- conflicts and refusals
  function element(tag, attrs, text) {
    var el = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) { el.setAttribute(name, attrs[name]); });
    if (text !== undefined) el.textContent = text;
    return el;
  }

  function reasonsList(reasons) {
    var list = element("ul", { "class": "qcard-reasons" });
    (reasons || []).forEach(function (reason) { list.appendChild(element("li", {}, reason)); });
    return list;
  }

  function version(title, values, extra, kind) {
    var box = element("div", { "class": "qversion" });
    box.appendChild(element("h4", {}, title));
    box.appendChild(element("p", { "class": "qsummary" }, describe(values, kind || "hand")));
    if (extra) box.appendChild(element("p", { "class": "hint" }, extra));
    return box;
  }

  function conflictCard(record) {
    var theirs = record.theirs;
    var kind = record.kind || "hand";
    var byHand = kind === "hand" || kind === "record";
    var card = element("article", { "class": "qcard conflict", "data-conflict": String(record.number),
      "data-key": record.key });
    // the heading names what is in conflict; the server's reason below says what happened (who, when)
    card.appendChild(element("h3", {}, "Stored meanwhile: " + (kind === "totals" ? "the match totals" :
      titleOf(record).toLowerCase())));
    card.appendChild(reasonsList(record.errors));
    var both = element("div", { "class": "qversions" });
    if (byHand) {
      both.appendChild(version("Theirs, as stored", theirs.fields, "by " + (theirs.entered_by || "—") +
        " · score after " + theirs.score_a_after + "–" + theirs.score_b_after, theirs.mode === "record" ? "record" : "hand"));
    } else {
      both.appendChild(version("Theirs, as stored", theirs.fields, theirs.entered_by ? "by " + theirs.entered_by : null,
        kind));
    }
    both.appendChild(version("Yours, as typed", valuesOf(record.fields), null, kind));
    card.appendChild(both);
    var keep = element("button", { type: "button", "class": "big", "data-keep-theirs": "" }, "Keep theirs");
    var mine = element("button", { type: "button", "class": "big secondary", "data-use-mine": "" },
      "Use mine (correct theirs)");
    card.appendChild(keep);
    card.appendChild(mine);
    var why = element("form", { "class": "qreason", hidden: "", novalidate: "" });
    var id = "reason-" + record.key;
    var holder = element("div", { "class": "card-field", id: "f-reason-" + record.key });
    holder.appendChild(element("label", { "for": id }, kind === "totals" ? "Why are their totals corrected?" :
      kind === "game" ? "Why is their game corrected?" : "Why is their hand corrected?"));
    var input = element("input", { type: "text", id: id, name: "reason", maxlength: "300", autocomplete: "off",
      placeholder: "e.g. Low went to B, not A" });
    holder.appendChild(input);
    why.appendChild(holder);
    why.appendChild(element("button", { type: "submit", "class": "big primary" },
      kind === "totals" ? "Correct the totals" : "Correct " + titleOf(record).toLowerCase()));
    card.appendChild(why);

    keep.addEventListener("click", function () {
      drop(record.key).then(load).then(function () { render(); showUpcoming(); drain(); });
    });
    mine.addEventListener("click", function () {
      why.hidden = false;
      mine.remove(); // the button's display is set by the CSS: the hidden attribute would not hide it
      input.focus();
    });
    why.addEventListener("submit", function (event) {
      event.preventDefault();
      holder.querySelectorAll(".field-errors").forEach(function (el) { el.remove(); });
      var reason = input.value.trim();
      if (!reason) return holderError(holder, ["say why " + (kind === "totals" ? "the totals are" : kind === "game" ?
        "the game is" : "the hand is") + " corrected"]);
      if (!byHand) return useMineAgain(record, reason);
      var fields = record.fields.filter(function (pair) { return pair[0] !== "number"; })
        .concat([["reason", reason], ["version", String(theirs.version)]]);
      post(theirs.edit_url, fields, null).then(function (answer) {
        var data = answer.data;
        if (answer.status === 200 && data && data.hand) {
          state.sentSome = true;
          showScore(data.next, null);
          if (data.next) server.next = data.next;
          return drop(record.key).then(load).then(function () { render(); drain(); });
        }
        if (data && data.stale && data.theirs) {
          record.theirs = data.theirs;
          record.errors = reasonsOf(data, answer.status);
          return save(record).then(function () { render(); });
        }
        var reasons = data && data.errors && data.errors.reason ? data.errors.reason : reasonsOf(data, answer.status);
        holderError(holder, reasons);
      }, function () {
        holderError(holder, ["No signal: the correction was not sent. Try again when connected."]);
      });
    });
    return card;
  }

  // a game result or the totals kept over theirs: sent again as a correction — the reason, and the stamp of
  // theirs as what was seen — with a new key (the conflict is kept under the old one)
  function useMineAgain(record, reason) {
    var oldKey = record.key;
    record.fields = record.fields.filter(function (pair) { return pair[0] !== "reason" && pair[0] !== "seen"; })
      .concat([["reason", reason], ["seen", record.theirs.seen]]);
    record.key = crypto.randomUUID();
    record.state = "queued";
    record.errors = null;
    record.theirs = null;
    return drop(oldKey).then(function () { return save(record); })
      .then(load).then(function () { render(); drain(); });
  }

  function holderError(holder, reasons) {
    var box = element("div", { "class": "field-errors", role: "alert" });
    reasons.forEach(function (reason) { box.appendChild(element("p", {}, reason)); });
    holder.insertBefore(box, holder.querySelector("input"));
  }

  function refusedCard(record) {
    var card = element("article", { "class": "qcard refused", "data-refused": String(record.number) });
    card.appendChild(element("h3", {}, titleOf(record) + (record.kind === "totals" ? " were not stored" :
      " was not stored")));
    card.appendChild(reasonsList(record.errors));
    card.appendChild(version("Yours, as typed", valuesOf(record.fields), null, record.kind));
    var row = element("div", { "class": "qactions" });
    if (form && (record.kind || "hand") === KIND) {
      row.appendChild(element("button", { type: "button", "class": "big", "data-edit": "" }, "Edit it"));
    }
    row.appendChild(element("button", { type: "button", "class": "big secondary", "data-retry": "" }, "Send again"));
    row.appendChild(element("button", { type: "button", "class": "big danger", "data-discard": "" }, "Discard"));
    card.appendChild(row);
    card.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button) return;
      if (button.hasAttribute("data-edit")) {
        fillForm(gapClosed(record));
        state.replacing = record.key;
        state.dirty = true;
        showUpcoming();
        form.scrollIntoView({ block: "start" });
      } else if (button.hasAttribute("data-retry")) {
        // a refusal is kept under its key: sending again is a new request, with a new key
        record.fields = gapClosed(record);
        if (record.lane !== "totals") record.number = Number(valuesOf(record.fields).number);
        record.key = crypto.randomUUID();
        record.state = "queued";
        record.errors = null;
        drop(button.closest("article").getAttribute("data-key")).then(function () { return save(record); })
          .then(load).then(function () { render(); drain(); });
      } else if (button.hasAttribute("data-discard")) {
        if (!window.confirm("Discard " + titleOf(record).toLowerCase() + "? What you typed for it is lost.")) return;
        discard(record);
      }
    });
    card.setAttribute("data-key", record.key);
    return card;
  }

  // the first hand waiting, refused because the server's next hand has a lower number (an undo, or a hand
  // discarded), takes the server's number
  function gapClosed(record) {
    if (!BY_HAND) return record.fields;
    var next = server.next;
    var first = state.records[0] === record;
    if (!first || !next || next.game !== record.game || record.number <= next.number) return record.fields;
    return record.fields.map(function (pair) { return pair[0] === "number" ? ["number", String(next.number)] : pair; });
  }

  // a hand discarded: those typed after it in the same game move up one number, as they were dealt after it
  function discard(record) {
    var after = state.records.filter(function (r) {
      return BY_HAND && r !== record && r.game === record.game && r.number > record.number && r.state === "queued";
    });
    after.forEach(function (r) {
      r.number -= 1;
      r.fields = r.fields.map(function (pair) { return pair[0] === "number" ? ["number", String(r.number)] : pair; });
    });
    drop(record.key).then(function () { return Promise.all(after.map(save)); }).then(load)
      .then(function () { render(); showUpcoming(); drain(); });
  }

  // ------------------------------------------------------------------------- the list and the score bar
  var shownCards = "";

  // the cards are rebuilt only when what they show changes, so that a reason being typed is not wiped out
  function cardsSignature(records) {
    return JSON.stringify(records.filter(function (r) { return r.state !== "queued"; }).map(function (r) {
      return [r.key, r.state, r.number, r.errors, r.theirs && r.theirs.version];
    }));
  }

  function render() {
    var records = state.records;
    section.hidden = !records.length;
    listBox.textContent = "";
    var signature = cardsSignature(records);
    var rebuild = signature !== shownCards;
    shownCards = signature;
    if (rebuild) cardsBox.textContent = "";
    records.forEach(function (record) {
      if (rebuild && record.state === "conflict" && record.theirs) cardsBox.appendChild(conflictCard(record));
      else if (rebuild && record.state === "refused") cardsBox.appendChild(refusedCard(record));
      var item = element("li", { "class": "qitem q-" + (record.sending ? "sending" : record.state) });
      item.appendChild(element("span", { "class": "qnum" }, titleOf(record)));
      item.appendChild(element("span", { "class": "qwhat" }, describe(valuesOf(record.fields), record.kind)));
      item.appendChild(element("span", { "class": "qstate" }, record.sending ? "sending…" :
        record.state === "conflict" ? "conflict" : record.state === "refused" ? "refused" : "waiting"));
      listBox.appendChild(item);
    });
    if (statusLine) {
      statusLine.hidden = !records.length;
      var n = records.length;
      var blocked = records.filter(function (r) { return r.state !== "queued"; })[0];
      var noun = LANE === "games" ? ["1 game", n + " games", "counted"] : LANE === "totals" ?
        ["Match totals", n + " versions of the totals", "checked"] : ["1 hand", n + " hands", "scored"];
      statusLine.textContent = (n === 1 ? noun[0] : noun[1]) + " waiting to send \u2014 " + noun[2] + " when sent";
      if (blocked) {
        var link = element("a", { href: "#queue-cards" }, titleOf(blocked).replace(/^Hand/, "hand")
          .replace(/^Game/, "game").replace(/^Match totals/, "the totals") + " " +
          (blocked.lane === "totals" ? "need" : "needs") + " you");
        statusLine.appendChild(document.createTextNode(" \u00b7 "));
        statusLine.appendChild(link);
      }
      statusLine.classList.toggle("blocked", !!blocked);
    }
  }

  // ------------------------------------------------------------------------- start
  // the waiting line sticks right under the score bar, whatever the bar's height on this phone
  var scorebar = document.querySelector(".scorebar");
  if (statusLine && scorebar) statusLine.style.top = scorebar.offsetHeight + "px";
  if (form) {
    form.addEventListener("submit", onSubmit);
    form.addEventListener("input", function () { state.dirty = true; });
    form.addEventListener("change", function () { state.dirty = true; });
  }
  window.addEventListener("online", function () { state.retryIn = 0; drain(); });
  document.addEventListener("visibilitychange", function () { if (!document.hidden) drain(); });
  load().then(function () { render(); showUpcoming(); drain(); });
})();
