// Printing shows every "why" explanation, opened or not; the page works without this file.
window.addEventListener("beforeprint", function () {
  document.querySelectorAll("details.why").forEach(function (d) {
    d.dataset.wasOpen = d.open ? "1" : "";
    d.open = true;
  });
});
window.addEventListener("afterprint", function () {
  document.querySelectorAll("details.why").forEach(function (d) {
    d.open = d.dataset.wasOpen === "1";
  });
});
// A 429 (too many requests) carries a message to show above what was there (HX-Reswap):
// htmx swaps only 2xx by default.
document.addEventListener("htmx:beforeSwap", function (event) {
  if (event.detail.xhr.status === 429) {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});
