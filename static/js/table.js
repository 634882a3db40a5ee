/* The live table page: draws the reader's own frame (templates/tables/table.html's #table-frame, then every frame
   of the socket ws/tables/<id>/) and sends the taps as actions.

   Never a rule here: the cards marked playable are the view's "legal" list, and a tap on any card is sent to the
   server, whose "refused" reason (the engine's words) is shown. The seat is the server's choice (the session or
   the seat link in the query), never the page's. After a lost connection the page reconnects and sends "sync"
   with the last version it drew; the server answers with the whole state. */
(function () {
  "use strict";
  var root = document.getElementById("table");
  if (!root) return;
  var frameTag = document.getElementById("table-frame");
  var frame = frameTag ? JSON.parse(frameTag.textContent) : null;
  var mySeat = root.dataset.seat === "" ? null : Number(root.dataset.seat);
  var startStatus = root.dataset.status;
  var startSeats = frame ? seatsKey(frame.seats) : "";
  var version = frame ? frame.version : -1;
  var socket = null, retry = 0, pingTimer = null, closedForGood = false, pending = false;

  var SUIT = { C: "♣", D: "♦", H: "♥", S: "♠" };
  var SUIT_NAME = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
  var MOVE_LABEL = { stand: "Stand", beg: "Beg", give: "Give one", run: "Run the pack" };
  var $ = function (id) { return document.getElementById(id); };

  function seatsKey(seats) {
    return JSON.stringify((seats || []).map(function (s) { return [s.name, s.bot, s.user_id]; }));
  }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  function cardFace(name, cls) {
    var rank = name.charAt(0) === "T" ? "10" : name.charAt(0), suit = name.charAt(1);
    var node = el("span", "card suit-" + suit + (cls ? " " + cls : ""));
    node.appendChild(el("span", "rank", rank));
    node.appendChild(el("span", "pip", SUIT[suit]));
    node.setAttribute("aria-label", rank + " of " + SUIT_NAME[suit]);
    return node;
  }

  // ------------------------------------------------------------------ where each seat sits on the screen
  function positions(players) {
    var me = mySeat === null ? 0 : mySeat, pos = {};
    if (players === 2) { pos[me] = "bottom"; pos[(me + 1) % 2] = "top"; return pos; }
    pos[me] = "bottom"; pos[(me + 1) % 4] = "left"; pos[(me + 2) % 4] = "top"; pos[(me + 3) % 4] = "right";
    return pos;
  }

  var BOT_NAME = { random: "Easy bot", heuristic: "Normal bot", montecarlo: "Strong bot" };

  function seatName(seat, seats) {
    var info = (seats || [])[seat] || {};
    var name = BOT_NAME[info.bot] || info.name || "Seat " + (seat + 1);
    if (seat === mySeat) name = "You";
    return name;
  }

  function teamOf(seat, players) { return players === 2 ? seat : seat % 2; }

  // ------------------------------------------------------------------ drawing
  function draw() {
    if (!frame) return;
    var view = frame.view, table = frame.table, seats = frame.seats;
    drawChalk(view, table);
    drawSpots(view, table, seats);
    drawCentre(view);
    drawTurn(view, table, seats);
    drawMoves(view);
    drawHand(view);
    drawLastTrick(view, seats);
    drawResult(view);
    var me = mySeat !== null ? seats[mySeat] : null;
    $("reclaim").hidden = !(me && me.covering);
    if (table.status !== startStatus || (table.status === "lobby" && seatsKey(seats) !== startSeats)) {
      window.location.reload();  // the seats panel is the server's page: draw it again
    }
  }

  function drawChalk(view, table) {
    var box = $("chalk");
    box.textContent = "";
    var score = view ? view.score : table.score, target = view ? view.target : 14;
    var names = table.players === 2 ? ["Seat 1", "Seat 2"] : ["Team A", "Team B"];
    if (mySeat !== null) names[teamOf(mySeat, table.players)] += " (you)";
    [0, 1].forEach(function (team) {
      var line = el("div", "chalk-line team-" + "ab"[team]);
      line.appendChild(el("span", "chalk-name", names[team]));
      var marks = el("span", "chalk-marks");
      for (var i = 0; i < target; i++) marks.appendChild(el("i", i < score[team] ? "on" : ""));
      line.appendChild(marks);
      line.appendChild(el("span", "chalk-score", score[team] + "/" + target));
      box.appendChild(line);
    });
    if (table.games_won && (table.games_won[0] || table.games_won[1])) {
      box.appendChild(el("div", "chalk-games", "Games " + table.games_won[0] + "–" + table.games_won[1]));
    }
  }

  function drawSpots(view, table, seats) {
    var pos = positions(table.players);
    document.querySelectorAll("#felt .spot").forEach(function (spot) { spot.textContent = ""; spot.hidden = true; });
    var played = {};
    if (view && view.trick) {
      view.trick.cards.forEach(function (card, i) { played[(view.trick.leader + i) % table.players] = card; });
    }
    for (var seat = 0; seat < table.players; seat++) {
      var spot = document.querySelector('#felt .spot[data-pos="' + pos[seat] + '"]');
      spot.hidden = false;
      var info = seats[seat] || {};
      spot.className = "spot team-" + "ab"[teamOf(seat, table.players)] +
        (table.turn === seat ? " to-move" : "") + (seat === mySeat ? " mine" : "");
      var head = el("div", "spot-name");
      head.appendChild(el("span", "spot-label", seatName(seat, seats)));
      if (table.dealer === seat && table.status === "playing") head.appendChild(el("span", "dealer", "D"));
      spot.appendChild(head);
      var tags = [];
      if (info.covering) tags.push("bot covering");
      if (info.away && !info.bot) tags.push("away");
      if (view && seat !== mySeat) tags.push(view.hand_sizes[seat] + " cards");
      if (tags.length) spot.appendChild(el("div", "spot-meta", tags.join(" · ")));
      if (played[seat]) spot.appendChild(cardFace(played[seat], "played"));
    }
  }

  function drawCentre(view) {
    var kick = $("kick");
    kick.textContent = "";
    if (!view) return;
    if (view.kicks && view.kicks.length) {
      kick.appendChild(el("span", "label", "Kick"));
      view.kicks.forEach(function (card) { kick.appendChild(cardFace(card, "small")); });
    }
    if (view.trump) {
      kick.appendChild(el("span", "trump suit-" + view.trump, "Trumps " + SUIT[view.trump]));
    }
    $("trick").textContent = view.phase === "beg" ? (view.beg ? "" : "Stand or beg?") : "";
  }

  function drawTurn(view, table, seats) {
    var text;
    if (table.status === "lobby") text = "Waiting for the table to start.";
    else if (table.status === "finished") text = "The game is over." + winnerText(view);
    else if (table.status === "closed") text = "The table is closed.";
    else if (table.turn === null || table.turn === undefined) text = "";
    else if (table.turn === mySeat) text = "Your turn" + (view && view.phase === "beg" ? ": stand or beg" :
      view && view.phase === "give" ? ": give one or run the pack" : "");
    else text = seatName(table.turn, seats) + " to " + (view && view.phase === "play" ? "play" : "choose");
    $("turn").dataset.text = text;
    $("turn").classList.toggle("mine", table.turn === mySeat && table.status === "playing");
    tick();
  }

  function winnerText(view) {
    var r = view && view.last_result;
    if (!r || r.winner === null || r.winner === undefined) return "";
    var names = frame.table.players === 2 ? ["Seat 1", "Seat 2"] : ["Team A", "Team B"];
    return " " + names[r.winner] + " won.";
  }

  function tick() {
    var turn = $("turn"), text = turn.dataset.text || "", table = frame && frame.table;
    if (table && table.deadline_at && table.status === "playing" && table.turn !== null) {
      var info = frame.seats[table.turn] || {};
      if (!info.bot && !info.covering) {
        var left = Math.max(0, Math.round((Date.parse(table.deadline_at) - Date.now()) / 1000));
        text += " · " + left + " s";
      }
    }
    turn.textContent = text;
  }

  function drawMoves(view) {
    var box = $("moves");
    box.textContent = "";
    if (!view || !view.legal) return;
    view.legal.forEach(function (action) {
      if (!MOVE_LABEL[action]) return;
      var button = el("button", "move", MOVE_LABEL[action]);
      button.type = "button";
      button.addEventListener("click", function () { send(action); });
      box.appendChild(button);
    });
  }

  function drawHand(view) {
    var box = $("hand");
    box.textContent = "";
    if (!view || mySeat === null) return;
    var legal = view.legal || [];
    view.hand.forEach(function (card) {
      var button = el("button", "hand-card" + (legal.indexOf(card) >= 0 ? " legal" : ""));
      button.type = "button";
      button.dataset.card = card;
      button.appendChild(cardFace(card));
      if (legal.indexOf(card) >= 0) button.setAttribute("aria-describedby", "turn");
      button.addEventListener("click", function () { send(card); });
      box.appendChild(button);
    });
    var count = view.hand.length;  // one row up to six cards, two even rows above
    box.style.setProperty("--columns", String(count <= 6 ? Math.max(count, 1) : Math.ceil(count / 2)));
    box.classList.toggle("my-turn", legal.some(function (a) { return !MOVE_LABEL[a]; }));
  }

  function drawLastTrick(view, seats) {
    var button = $("last-trick-button"), box = $("last-trick");
    var tricks = view && view.tricks ? view.tricks : [];
    button.hidden = tricks.length === 0;
    if (!tricks.length) { box.hidden = true; return; }
    var last = tricks[tricks.length - 1], players = frame.table.players;
    box.textContent = "";
    last.cards.forEach(function (card, i) {
      var seat = (last.leader + i) % players, item = el("span", "lt-play");
      item.appendChild(el("span", "lt-name", seatName(seat, seats)));
      item.appendChild(cardFace(card, "small" + (seat === last.winner ? " won" : "")));
      box.appendChild(item);
    });
    box.appendChild(el("p", "meta", seatName(last.winner, seats) + " won it."));
  }

  function drawResult(view) {
    var box = $("result"), r = view && view.last_result;
    if (!r) { box.hidden = true; return; }
    var names = frame.table.players === 2 ? ["Seat 1", "Seat 2"] : ["A", "B"], parts = [];
    if (r.high) parts.push("High " + r.high.card.replace("T", "10") + " → " + names[r.high.team]);
    if (r.low) parts.push("Low " + r.low.card.replace("T", "10") + " → " + names[r.low.team]);
    if (r.jack) parts.push((r.jack.hang ? "Hang Jack → " : "Jack → ") + names[r.jack.team]);
    if (r.game) parts.push("Game " + (r.game.team === null ? "tied" : "→ " + names[r.game.team]) +
      " (" + r.game.counts[0] + "–" + r.game.counts[1] + ")");
    if (r.redeal) parts.push("redeal");
    box.textContent = "Last hand: " + parts.join(" · ");
    box.hidden = false;
  }

  function notice(text) {
    var box = $("notice");
    box.textContent = text;
    box.hidden = !text;
  }

  // ------------------------------------------------------------------ the socket
  function newId() {
    if (window.crypto && window.crypto.randomUUID) return window.crypto.randomUUID();
    return Date.now().toString(36) + Math.random().toString(36).slice(2);
  }

  function send(action) {
    if (!socket || socket.readyState !== WebSocket.OPEN) { notice("Not connected: wait a moment."); return; }
    if (pending) return;
    pending = true;
    notice("");
    socket.send(JSON.stringify({ type: "act", action: action, version: version, id: newId() }));
  }

  function connState(state, text) {
    var conn = $("conn");
    conn.dataset.state = state;
    conn.textContent = text;
  }

  function connect() {
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    connState(retry ? "reconnecting" : "connecting", retry ? "reconnecting…" : "connecting…");
    socket = new WebSocket(scheme + window.location.host + root.dataset.socket + root.dataset.query);
    socket.addEventListener("open", function () {
      retry = 0;
      connState("live", "live");
      socket.send(JSON.stringify({ type: "sync", version: version }));
      clearInterval(pingTimer);
      pingTimer = setInterval(function () {
        if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "ping" }));
      }, 25000);
    });
    socket.addEventListener("message", function (message) {
      var data;
      try { data = JSON.parse(message.data); } catch (e) { return; }
      receive(data);
    });
    socket.addEventListener("close", function (event) {
      clearInterval(pingTimer);
      pending = false;
      if (event.code === 4403 || event.code === 4404 || event.code === 4001 || closedForGood) {
        closedForGood = true;
        connState("closed", event.code === 4001 ? "logged out" : "closed");
        return;
      }
      retry += 1;
      connState("reconnecting", "reconnecting…");
      setTimeout(connect, Math.min(10000, 500 * Math.pow(2, retry)));
    });
  }

  function receive(data) {
    if (data.type === "state" || data.type === "event") {
      if (data.version < version && data.type === "event") return;
      pending = false;
      version = data.version;
      frame = { version: data.version, view: data.view, seats: data.seats, table: data.table };
      if (data.type === "event" && data.seat !== undefined && data.seat === mySeat) notice("");
      draw();
    } else if (data.type === "refused") {
      pending = false;
      notice(data.reason);
      if (data.field === "table" && data.version === null) closedForGood = true;
    }
  }

  // ------------------------------------------------------------------ start
  $("last-trick-button").addEventListener("click", function () {
    var box = $("last-trick"), button = $("last-trick-button");
    box.hidden = !box.hidden;
    button.setAttribute("aria-expanded", String(!box.hidden));
  });
  $("reclaim").addEventListener("click", function () {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "reclaim" }));
  });
  var invite = document.getElementById("invite-link");
  if (invite) invite.addEventListener("focus", function () { invite.select(); });
  if ("scrollRestoration" in window.history) window.history.scrollRestoration = "manual";  // a seats form posted
  draw();
  setInterval(tick, 1000);
  if (startStatus !== "closed") connect();
  else connState("closed", "closed");
})();
