// The lobby's "New table" form: the seats it shows follow what is chosen. At two players seats 3 and 4 are hidden
// (the server uses seats 1 and 2 only), and your own seat's "who plays" is replaced by "You". Nothing is lost:
// a hidden choice is only hidden, and the server ignores those seats as it does without this script.
(function () {
  "use strict";
  var form = document.querySelector("form.create-table");
  if (!form) return;
  var SEATS = form.querySelectorAll("#f-seat input[name=seat]").length;

  function chosen(name) {
    var input = form.querySelector("input[name=" + name + "]:checked");
    return input ? Number(input.value) : null;
  }

  function youNote(index) {
    var holder = document.getElementById("f-bot_" + index);
    var note = holder.querySelector("[data-you]");
    if (!note) {
      note = document.createElement("p");
      note.className = "you-note";
      note.setAttribute("data-you", "");
      note.textContent = "You";
      holder.appendChild(note);
    }
    return note;
  }

  function follow() {
    var players = chosen("players") || SEATS;
    var seat = chosen("seat");
    if (seat !== null && seat >= players) {  // your seat is gone: sit in seat 1
      form.querySelector("input[name=seat][value='0']").checked = true;
      seat = 0;
    }
    for (var index = 0; index < SEATS; index++) {
      var used = index < players;
      form.querySelector("input[name=seat][value='" + index + "']").closest("label").hidden = !used;
      var holder = document.getElementById("f-bot_" + index);
      holder.hidden = !used;
      var mine = index === seat;
      holder.querySelector("select").hidden = mine;
      youNote(index).hidden = !mine;
    }
  }

  form.addEventListener("change", function (event) {
    if (event.target.name === "players" || event.target.name === "seat") follow();
  });
  follow();
})();
