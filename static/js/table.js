/* The live table page: draws the reader's own frame (tables/templates/tables/table.html's #table-frame, then every frame
   of the socket ws/tables/<id>/) and sends the taps as actions.

   Never a rule here: the cards marked playable are the view's "legal" list, and a tap on any card is sent to the
   server, whose "refused" reason (the engine's words) is shown. The seat is the server's choice (the session or
   the seat link in the query), never the page's. After a lost connection the page reconnects and sends "sync"
   with the last version it drew; the server answers with the whole state.

   The page never guesses that it is up to date: it asks for the state ("sync") when an event skips a version,
   when a tap gets no answer within TAP_WAIT, and when the heartbeat (a ping every BEAT, answered by a pong with the
   table's version) says the table is further on than the page. The pong comes through the server's channel layer:
   "live" is shown only while it comes back so ("live": true); with no pong, or one sent back with "live": false
   (the layer is down), the mark says "catching up…" and the page keeps asking for the state until it is live again.

   On a phone in a noisy bar: nothing moves under the thumb (the turn line is one line, the stand / beg / give /
   run buttons take the row of the other buttons, a refusal floats over the chalk); a completed trick stays on the
   felt a moment (HOLD) with its winner marked — also the last trick of a hand, from the hand's result — and the
   last hand's points are written under the chalk. Tests read data-version (#table), data-hand and data-score
   (#chalk), data-seat (#felt .spot) and data-card (.card). */
(function () {
  "use strict";
  var root = document.getElementById("table");
  if (!root) return;
  var frameTag = document.getElementById("table-frame");
  var frame = frameTag ? JSON.parse(frameTag.textContent) : null;
  var pageTag = document.getElementById("table-page");
  /* What the server knows of the page beyond the frame: the target before the first deal, a league match's
     players and sides by name, its result once over, and where the finished hands' replays are. */
  var PAGE = pageTag ? JSON.parse(pageTag.textContent) : {};
  var fixture = PAGE.kind === "fixture";
  var mySeat = root.dataset.seat === "" ? null : Number(root.dataset.seat);
  root.classList.toggle("watching", mySeat === null);  // a spectator: no hand, no moves
  var startStatus = root.dataset.status;
  var startSeats = frame ? seatsKey(frame.seats) : "";
  var version = frame ? frame.version : -1;
  var socket = null, retry = 0, pingTimer = null, closedForGood = false, pending = false;
  var BEAT = 10000, PONG_WAIT = 4000, TAP_WAIT = 4000;  // ms: heartbeat, its answer, a tap's answer
  var pongTimer = null, tapTimer = null, lastSync = 0;
  var HOLD = 2500;  // ms a completed trick stays on the felt (unless the next trick starts first)
  var firstSeen = {}, holdTimer = null, noticeTimer = null;
  var sending = false;  // a form of the page was sent (Sit here, Start, …): its answer draws the page, not a reload

  var SUIT = { C: "♣", D: "♦", H: "♥", S: "♠" };
  var SUIT_NAME = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
  var MOVE_LABEL = { stand: "Stand", beg: "Beg", give: "Give one", run: "Run the pack" };
  var TEAM_NAMES = { 2: ["Seat 1", "Seat 2"], 4: ["Team A", "Team B"] };
  var SHORT_NAMES = { 2: ["Seat 1", "Seat 2"], 4: ["A", "B"] };
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
    node.dataset.card = name;
    node.appendChild(el("span", "rank", rank));
    node.appendChild(el("span", "pip", SUIT[suit]));
    node.setAttribute("aria-label", rank + " of " + SUIT_NAME[suit]);
    return node;
  }

  // ------------------------------------------------------------------ where each seat sits on the screen
  function positions(players) {
    var me = mySeat === null ? 0 : mySeat, pos = {};
    if (players === 2) { pos[me] = "bottom"; pos[(me + 1) % 2] = "top"; return pos; }
    // play passes to the right (anticlockwise): the player after you sits on your right
    pos[me] = "bottom"; pos[(me + 1) % 4] = "right"; pos[(me + 2) % 4] = "top"; pos[(me + 3) % 4] = "left";
    return pos;
  }

  function seatName(seat, seats) {  // a bot by its name at the seat; its strength is the spot's bot_label
    var info = (seats || [])[seat] || {};
    var name = (PAGE.names && PAGE.names[seat]) || info.name || "Seat " + (seat + 1);
    if (seat === mySeat) name = "You";
    return name;
  }

  function cardText(name) {
    return (name.charAt(0) === "T" ? "10" : name.charAt(0)) + SUIT[name.charAt(1)];
  }

  function teamOf(seat, players) { return players === 2 ? seat : seat % 2; }

  function teamNames(players) {  // a league match's sides by their partnerships' names
    return fixture && PAGE.sides && PAGE.sides.length === 2 ? PAGE.sides : TEAM_NAMES[players];
  }

  function replayLink(number) {
    var link = el("a", "replay-link", "Replay");
    link.href = PAGE.hands + number + "/replay/" + (PAGE.query || "");
    link.setAttribute("aria-label", "Replay the last hand");
    return link;
  }

  // ------------------------------------------------------------------ drawing
  function draw() {
    if (!frame) return;
    var view = frame.view, table = frame.table, seats = frame.seats;
    root.dataset.version = String(frame.version);
    drawChalk(view, table);
    var shown = shownTrick(view, table);
    drawSpots(view, table, seats, shown);
    drawCentre(view, table, seats, shown);
    drawTurn(view, table, seats);
    drawMoves(view);
    drawHand(view);
    drawLastTrick(view, seats);
    drawResult(view);
    var me = mySeat !== null ? seats[mySeat] : null;
    $("reclaim").hidden = !(me && me.covering);
    $("action-row").classList.toggle("has-moves", $("moves").childElementCount > 0);
    $("tinfo").textContent = !view ? "" : (view.game_number > 1 ? " · game " + view.game_number : "") +
      " · hand " + view.hand_number;
    if (!sending && (table.status !== startStatus || (table.status === "lobby" && seatsKey(seats) !== startSeats))) {
      window.location.reload();  // the seats panel is the server's page: draw it again
    }
  }

  function drawChalk(view, table) {
    var chalk = $("chalk"), box = $("chalk-lines");
    box.textContent = "";
    var score = view ? view.score : (PAGE.score || table.score), target = view ? view.target : (PAGE.target || 14);
    chalk.dataset.hand = String(view ? view.hand_number : 0);
    chalk.dataset.score = score[0] + "-" + score[1];
    var names = teamNames(table.players).slice();
    if (mySeat !== null) names[teamOf(mySeat, table.players)] += " (you)";
    [0, 1].forEach(function (team) {
      var line = el("div", "chalk-line team-" + "ab"[team]);
      line.appendChild(el("span", "chalk-name", names[team]));
      line.appendChild(tally(score[team]));
      line.appendChild(el("span", "chalk-score", score[team] + "/" + target));
      box.appendChild(line);
    });
    var games = !view && PAGE.games_won ? PAGE.games_won : table.games_won;
    if (games && (games[0] || games[1] || fixture)) {
      box.appendChild(el("div", "chalk-games", "Games " + games[0] + "–" + games[1] +
        (fixture && PAGE.format ? " · " + PAGE.format : "")));
    }
  }

  function tally(points) {  // chalk strokes in fives, the fifth across the four
    var marks = el("span", "chalk-marks");
    marks.setAttribute("aria-hidden", "true");
    for (var done = 0; done < points; done += 5) {
      var group = el("span", "tally"), inGroup = Math.min(5, points - done);
      for (var i = 0; i < Math.min(4, inGroup); i++) group.appendChild(el("i"));
      if (inGroup === 5) group.appendChild(el("i", "strike"));
      marks.appendChild(group);
    }
    return marks;
  }

  // ------------------------------------------------------------------ the trick on the felt
  function shownTrick(view, table) {
    /* The trick being played; else, for HOLD ms after it was first seen, the trick just completed (the last
       one of the hand before, from its result, once the next hand is dealt); at the end of the game the last
       trick stays. */
    if (!view) return null;
    if (view.trick && view.trick.cards.length) return { trick: view.trick, done: false };
    var tricks = view.tricks || [], last = null, key;
    if (tricks.length) { last = tricks[tricks.length - 1]; key = view.hand_number + ":" + tricks.length; }
    else if (view.last_result && view.last_result.tricks && view.last_result.tricks.length) {
      last = view.last_result.tricks[view.last_result.tricks.length - 1];
      key = (view.hand_number - 1) + ":end";
    }
    if (!last) return null;
    if (table.status === "finished") return { trick: last, done: true };
    var now = Date.now();
    if (firstSeen[key] === undefined) firstSeen[key] = now;
    var left = firstSeen[key] + HOLD - now;
    if (left <= 0) return null;
    clearTimeout(holdTimer);
    holdTimer = setTimeout(draw, left + 20);
    return { trick: last, done: true, handOver: !tricks.length };
  }

  function drawSpots(view, table, seats, shown) {
    var pos = positions(table.players);
    document.querySelectorAll("#felt .spot").forEach(function (spot) { spot.textContent = ""; spot.hidden = true; });
    var played = {}, winner = null;
    if (shown) {
      shown.trick.cards.forEach(function (card, i) { played[(shown.trick.leader + i) % table.players] = card; });
      if (shown.done) winner = shown.trick.winner;
    }
    var over = !view || view.phase === "over" || table.status !== "playing";
    for (var seat = 0; seat < table.players; seat++) {
      var spot = document.querySelector('#felt .spot[data-pos="' + pos[seat] + '"]');
      spot.hidden = false;
      spot.dataset.seat = String(seat);
      var info = seats[seat] || {};
      spot.className = "spot team-" + "ab"[teamOf(seat, table.players)] +
        (table.turn === seat ? " to-move" : "") + (seat === mySeat ? " mine" : "");
      var who = el("div", "spot-who"), head = el("div", "spot-name");
      head.appendChild(el("span", "spot-label", seatName(seat, seats)));
      if (table.match_clock && !info.bot) {  // the match's chess clock: what the seat has left, kept by the server
        var clock = el("span", "spot-clock", clockText(info.bank_left));
        clock.dataset.seat = String(seat);
        head.appendChild(clock);
      }
      who.appendChild(head);
      spot.appendChild(who);
      var tags = [];
      if (table.players === 4 && mySeat !== null && pos[seat] === "top") tags.push("partner");
      if (info.bot && info.bot_label) tags.push(info.bot_label);
      if (info.covering) tags.push("bot covering");
      var away = Boolean(info.away && !info.bot);
      spot.dataset.away = String(away);
      if (away) tags.push("away");
      if (view && seat !== mySeat && !over) tags.push(view.hand_sizes[seat] + " cards");
      var meta = el("div", "spot-meta", tags.join(" · "));
      if (table.dealer === seat && table.status === "playing") {
        var dealer = el("span", "dealer", "D");
        dealer.title = "dealer";
        meta.insertBefore(dealer, meta.firstChild);
      }
      if (meta.childNodes.length) who.appendChild(meta);
      if (played[seat]) {
        spot.appendChild(cardFace(played[seat], "played" + (shown.done ? " done" : "") +
          (seat === winner ? " won" : "")));
      } else {
        spot.appendChild(el("span", "card-slot"));  // the card's place: the felt keeps its size
      }
    }
  }

  function drawCentre(view, table, seats, shown) {
    var kick = $("kick"), caption = $("trick");
    kick.textContent = "";
    caption.className = "trick";
    if (table.status === "finished" && fixture) {  // a league match: over when the match is, not the game
      caption.className = "trick game-won";
      caption.textContent = PAGE.winner ? PAGE.winner + " won the match" : "The match is over";
      return;
    }
    if (table.status === "finished" && view && view.last_result && view.last_result.winner !== null &&
        view.last_result.winner !== undefined) {
      var r = view.last_result, won = r.winner, names = teamNames(table.players);
      caption.className = "trick game-won team-" + "ab"[won];
      caption.textContent = names[won] + " won " + r.score_after[won] + "–" + r.score_after[1 - won];
      return;
    }
    if (!view) { caption.textContent = ""; return; }
    if (view.kicks && view.kicks.length) {
      kick.appendChild(el("span", "label", "Kick"));
      view.kicks.forEach(function (card) { kick.appendChild(cardFace(card, "small")); });
    }
    if (view.trump) {
      kick.appendChild(el("span", "trump suit-" + view.trump, "Trumps " + SUIT[view.trump]));
    }
    if (shown && shown.done && shown.trick.winner !== null && shown.trick.winner !== undefined) {
      var who = seatName(shown.trick.winner, seats);
      caption.textContent = who + (who === "You" ? " win" : " wins") + (shown.handOver ? " the last trick" : " the trick");
    } else if (view.phase === "beg") caption.textContent = "Stand or beg?";
    else if (view.phase === "give") {
      var beggar = seatName((view.dealer + 1) % table.players, seats);
      caption.textContent = beggar + (beggar === "You" ? " beg" : " begs");
    } else caption.textContent = "";
  }

  function drawTurn(view, table, seats) {
    var text;
    if (table.status === "lobby") text = fixture ? "Waiting for the match to start." : "Waiting for the table to start.";
    else if (table.status === "finished" && fixture) {  // why it ended, the table's words (a forfeit says who)
      text = table.end_reason || "The match is over" + (PAGE.winner ? ": " + PAGE.winner + " won." : ".");
    }
    else if (table.status === "finished") text = "The game is over." + winnerText(view);
    else if (table.status === "closed") text = table.end_reason || "The table is closed.";
    else if (table.on_hold) text = table.on_hold;
    else if (table.turn === null || table.turn === undefined) text = "";
    else if (table.turn === mySeat) text = "Your turn" + (view && view.phase === "beg" ? ": stand or beg?" :
      view && view.phase === "give" ? ": give or run?" : ": tap a raised card");
    else text = seatName(table.turn, seats) + " to " + (view && view.phase === "play" ? "play" : "choose");
    if (table.delay === "trick" && table.status === "playing") text = "A trick behind · " + text;  // an event's spectator
    $("turn").dataset.text = text;
    $("turn").classList.toggle("mine", table.turn === mySeat && table.status === "playing");
    // why the table stopped or waits is said whole, on as many lines as it takes (a turn's line keeps its height)
    $("turn").classList.toggle("says-why", Boolean(table.on_hold) || table.status === "finished" ||
      table.status === "closed");
    tick();
  }

  function winnerText(view) {
    var r = view && view.last_result;
    if (!r || r.winner === null || r.winner === undefined) return "";
    return " " + teamNames(frame.table.players)[r.winner] + " won.";
  }

  function clockText(seconds) {  // 4:05, or 1:02:05 for an hour or more
    var whole = Math.max(0, Math.ceil(seconds || 0)), h = Math.floor(whole / 3600), m = Math.floor(whole / 60) % 60,
      s = whole % 60, two = function (n) { return (n < 10 ? "0" : "") + n; };
    return (h ? h + ":" + two(m) : String(m)) + ":" + two(s);
  }

  function tick() {
    var turn = $("turn"), text = turn.dataset.text || "", table = frame && frame.table;
    if (table && table.deadline_at && table.status === "playing" && table.turn !== null && !table.on_hold) {
      var info = frame.seats[table.turn] || {};
      if (!info.bot && !info.covering) {
        var left = Math.max(0, (Date.parse(table.deadline_at) - Date.now()) / 1000);
        if (table.match_clock) {  // the seat to move's clock runs down to its deadline
          var running = document.querySelector('#felt .spot-clock[data-seat="' + table.turn + '"]');
          if (running) { running.textContent = clockText(left); running.classList.toggle("low", left < 30); }
        } else text += " · " + Math.round(left) + " s";
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
    /* The hand before (or the one just over): each side's points, then where they came from. */
    var box = $("result"), r = view && view.last_result;
    box.textContent = "";
    if (!r) { box.hidden = true; return; }
    var names = SHORT_NAMES[frame.table.players], parts = [];
    var head = el("div", "result-points", "Last hand: " + names[0] + " +" + r.points[0] + " · " + names[1] + " +" +
      r.points[1]);
    [0, 1].forEach(function (team) {
      if (r.kick_points && r.kick_points[team]) parts.push("Kick " + names[team] + " +" + r.kick_points[team]);
      if (r.beg_points && r.beg_points[team]) parts.push("Give one " + names[team]);
    });
    if (r.high) parts.push("High " + cardText(r.high.card) + " " + names[r.high.team]);
    if (r.low) parts.push("Low " + cardText(r.low.card) + " " + names[r.low.team]);
    if (r.jack) parts.push((r.jack.hang ? "Hang Jack " : "Jack ") + names[r.jack.team]);
    if (r.game) parts.push("Game " + (r.game.team === null ? "tied" : names[r.game.team]) +
      " " + r.game.counts[0] + "–" + r.game.counts[1]);
    if (r.redeal) parts.push("redeal");
    if (PAGE.hands) {  // the hand just over, or the one before the hand in play: its replay
      head.appendChild(document.createTextNode(" "));
      head.appendChild(replayLink(view.phase === "over" ? view.hand_number : view.hand_number - 1));
    }
    box.appendChild(head);
    box.appendChild(el("div", "result-parts", parts.join(" · ")));
    box.hidden = false;
  }

  function notice(text) {  // over the chalk, so that nothing moves under the thumb; gone after a while or a tap
    var box = $("notice");
    box.textContent = text;
    box.hidden = !text;
    clearTimeout(noticeTimer);
    if (text) noticeTimer = setTimeout(function () { notice(""); }, 6000);
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
    clearTimeout(tapTimer);
    tapTimer = setTimeout(function () {  // no event and no refusal: the answer was lost on its way
      if (!pending) return;
      pending = false;
      notice("No answer from the table yet: fetching the table again…");
      sync(true);
    }, TAP_WAIT);
  }

  function sync(force) {  // the whole state from the server, with what was missed since our version
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    var now = Date.now();
    if (!force && now - lastSync < 1000) return;  // one request a second at most
    lastSync = now;
    socket.send(JSON.stringify({ type: "sync", version: version }));
  }

  function beat() {  // the heartbeat: a pong with the table's version must come back through the server's layer
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    socket.send(JSON.stringify({ type: "ping" }));
    clearTimeout(pongTimer);
    pongTimer = setTimeout(function () { catchingUp(); sync(); }, PONG_WAIT);
  }

  function catchingUp() {
    if (socket && socket.readyState === WebSocket.OPEN) connState("catching-up", "catching up…");
  }

  function pong(data) {
    clearTimeout(pongTimer);
    if (typeof data.version === "number" && data.version > version) sync();
    if (data.live === false) {
      catchingUp();
      clearTimeout(pongTimer);
      pongTimer = setTimeout(beat, PONG_WAIT);  // the layer is down: keep asking, sooner than the heartbeat
    } else {
      connState("live", "live");
    }
  }

  function connState(state, text) {
    var conn = $("conn");
    root.dataset.conn = state;
    conn.dataset.state = state;
    conn.textContent = text;
  }

  function connect() {
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    connState(retry ? "reconnecting" : "connecting", retry ? "reconnecting…" : "connecting…");
    socket = new WebSocket(scheme + window.location.host + root.dataset.socket + root.dataset.query);
    socket.addEventListener("open", function () {
      retry = 0;
      sync(true);
      beat();  // live once the heartbeat comes back through the server's layer
      clearInterval(pingTimer);
      pingTimer = setInterval(beat, BEAT);
    });
    socket.addEventListener("message", function (message) {
      var data;
      try { data = JSON.parse(message.data); } catch (e) { return; }
      receive(data);
    });
    socket.addEventListener("close", function (event) {
      clearInterval(pingTimer);
      clearTimeout(pongTimer);
      clearTimeout(tapTimer);
      pending = false;
      if (event.code === 4403 || event.code === 4404 || event.code === 4001 || closedForGood) {
        closedForGood = true;
        var byLink = (root.dataset.query || "").indexOf("?seat=") === 0;  // a seat link's socket: its link changed
        connState("closed", event.code === 4001 ? (byLink ? "link revoked" : "logged out") :
          event.code === 4403 && byLink ? "link revoked" : "closed");
        return;
      }
      retry += 1;
      connState("reconnecting", "reconnecting…");
      setTimeout(connect, Math.min(10000, 500 * Math.pow(2, retry)));
    });
  }

  function receive(data) {
    if (data.type === "state" || data.type === "event") {
      if (data.version < version) return;  // older than what is shown (a sync's answer overtaken by an event)
      if (data.type === "event" && version >= 0 && data.version > version + 1) sync(true);  // a version missed
      if (data.type === "state" && pending === false && $("notice").textContent.indexOf("No answer") === 0) {
        notice("");
      }
      pending = false;
      clearTimeout(tapTimer);
      version = data.version;
      frame = { version: data.version, view: data.view, seats: data.seats, table: data.table };
      if (data.type === "event" && data.seat !== undefined && data.seat === mySeat) notice("");
      draw();
    } else if (data.type === "pong") {
      pong(data);
    } else if (data.type === "clock") {  // the turn's clock started when it reached its player
      if (frame && data.version === version) { frame.table.deadline_at = data.deadline_at; tick(); }
    } else if (data.type === "refused") {
      pending = false;
      clearTimeout(tapTimer);
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
  $("notice").addEventListener("click", function () { notice(""); });
  $("last-trick").addEventListener("click", function () { $("last-trick-button").click(); });
  $("reclaim").addEventListener("click", function () {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "reclaim" }));
  });
  document.addEventListener("submit", function (event) { if (!event.defaultPrevented) sending = true; });
  window.addEventListener("pageshow", function () { sending = false; });  // back to the page from the history
  var invite = document.getElementById("invite-link");
  if (invite) invite.addEventListener("focus", function () { invite.select(); });
  if ("scrollRestoration" in window.history) window.history.scrollRestoration = "manual";  // a seats form posted
  draw();
  setInterval(tick, 1000);
  if (startStatus !== "closed") connect();
  else connState("closed", "closed");
})();
