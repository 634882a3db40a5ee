// The share box's "Copy the link" button (templates/_share.html): the link to the clipboard, and it says so.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button[data-copy]") : null;
    if (!button) return;
    var done = function () { button.textContent = "Copied"; };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(button.getAttribute("data-copy")).then(done, function () { button.textContent = "Copy failed"; });
    } else {
      var field = document.createElement("textarea");
      field.value = button.getAttribute("data-copy");
      document.body.appendChild(field);
      field.select();
      try { document.execCommand("copy"); done(); } catch (e) { button.textContent = "Copy failed"; }
      field.remove();
    }
  });
})();
