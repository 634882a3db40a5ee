// The competition form: the match format's choices say the number of games as it is typed ("Best of 3 games"),
// from the wording the server put in data-words (for one game, and for {n} games). The page works without it.
(function () {
  "use strict";
  var select = document.querySelector("select[data-words]");
  var games = document.getElementById("id_match_games");
  if (!select || !games) return;
  var words = JSON.parse(select.getAttribute("data-words"));

  function say() {
    var n = games.value.trim();
    Array.prototype.forEach.call(select.options, function (option) {
      var pair = words[option.value];
      if (!pair) return;
      option.textContent = n === "1" ? pair[0] : pair[1].replace("{n}", /^\d+$/.test(n) ? n : "N");
    });
  }

  games.addEventListener("input", say);
  say();
})();

// A bye's column: its number field is shown only while its rule is "This number" (the server refuses a number
// given with another rule, so nothing typed is lost: a number already typed keeps the field shown).
(function () {
  "use strict";
  Array.prototype.forEach.call(document.querySelectorAll(".bye-column"), function (column) {
    var rule = column.querySelector("select");
    var number = column.querySelector("input");
    if (!rule || !number) return;
    var field = number.closest(".field");
    function show() {
      field.hidden = rule.value !== "number" && number.value.trim() === "" && !field.classList.contains("has-error");
    }
    rule.addEventListener("change", show);
    show();
  });
})();
