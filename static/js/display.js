// The big screen: its views ([data-view] sections) shown one after another. Which views and how long each shows come
// from the page's address (?show=pairings,standings,results&seconds=15), as the organiser chose them; the view shown
// is kept on <body> (outside the live region) so that a live update of the page does not start the cycle again.
(function () {
  "use strict";
  var params = new URLSearchParams(location.search);
  var asked = params.getAll("show").join(",");  // ?show=a,b or the chooser's ?show=a&show=b
  var wanted = (asked || "pairings,standings,results").split(",").filter(Boolean);
  var seconds = Math.min(600, Math.max(5, parseInt(params.get("seconds"), 10) || 15));
  var index = 0;

  function available() {
    return wanted.filter(function (name) { return document.querySelector(".display-view[data-view='" + name + "']"); });
  }

  function show() {
    var views = available();
    if (!views.length) return;
    index = index % views.length;
    document.body.setAttribute("data-view", views[index]);
    document.body.setAttribute("data-views", String(views.length));
  }

  function start() {
    show();
    if (available().length > 1) {
      setInterval(function () { index += 1; show(); }, seconds * 1000);
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
