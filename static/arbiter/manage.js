// Director screens: a button with data-confirm asks before its form is sent (no inline
// handlers, so a strict Content Security Policy holds).
document.addEventListener("click", function (event) {
  var button = event.target.closest("[data-confirm]");
  if (button && !window.confirm(button.dataset.confirm)) event.preventDefault();
});
// A form marked data-swap-refusal shows a 422 answer (the form again, its errors named):
// htmx swaps only 2xx by default, and a refusal must never be lost without a word.
document.addEventListener("htmx:beforeSwap", function (event) {
  var elt = event.detail.requestConfig && event.detail.requestConfig.elt;
  if (event.detail.xhr.status === 422 && elt && elt.closest("[data-swap-refusal]")) {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});
