// The printable scoresheet: its rows' height (the server's fit of every game on one page) and the Print button.
(function () {
  "use strict";
  var sheet = document.querySelector(".print-sheet[data-row-mm]");
  if (sheet) sheet.style.setProperty("--row", sheet.dataset.rowMm + "mm");
  document.querySelectorAll("button[data-print]").forEach(function (button) {
    button.addEventListener("click", function () { window.print(); });
  });
})();
