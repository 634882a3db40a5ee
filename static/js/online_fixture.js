// The online fixture page: each seat link's Copy button.
document.querySelectorAll("button.copy").forEach(function (button) {
  button.addEventListener("click", function () {
    var input = document.getElementById(button.dataset.copy);
    function done() { button.textContent = "Copied"; setTimeout(function () { button.textContent = "Copy"; }, 2000); }
    input.select();
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(input.value).then(done, function () { document.execCommand("copy"); done(); });
    else { document.execCommand("copy"); done(); }
  });
});
