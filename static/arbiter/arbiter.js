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
