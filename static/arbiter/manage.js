// Director screens: a button with data-confirm asks before its form is sent (no inline
// handlers, so a strict Content Security Policy holds).
document.addEventListener("click", function (event) {
  var button = event.target.closest("[data-confirm]");
  if (button && !window.confirm(button.dataset.confirm)) event.preventDefault();
});
