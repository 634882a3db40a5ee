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
