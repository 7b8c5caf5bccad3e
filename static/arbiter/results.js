// Result entry: the cursor starts in the first empty score box; Enter saves a row, from a
// box or from a menu (how the game ended, who defaulted); after a save, by Enter or by a
// click on Save, the cursor moves to the first box of the next match.
document.addEventListener("DOMContentLoaded", function () {
  var rows = document.getElementById("result-rows");
  if (!rows) return;
  var boxes = rows.querySelectorAll("input.score-input");
  for (var i = 0; i < boxes.length; i++) {
    if (!boxes[i].value) { boxes[i].focus(); return; }
  }
});
// A menu inside a part of the row with its own button (GokoDom's result codes, "who goes
// through") saves with that button, as a click would: the row's own Save would refuse them.
document.addEventListener("keydown", function (event) {
  var field = event.target;
  if (event.key !== "Enter" || !field || field.tagName !== "SELECT") return;
  var form = field.closest && field.closest("form.result-row, form[data-enter-saves]");
  if (!form) return;
  event.preventDefault();
  for (var part = field.parentElement; part && part !== form; part = part.parentElement) {
    var own = part.querySelector("button[type=submit]");
    if (own) { own.click(); return; }
  }
  if (form.requestSubmit) form.requestSubmit(); else form.submit();
});
// The director's decision on a disputed GokoDom match: choosing a code picks "a result
// code for each player".
document.addEventListener("change", function (event) {
  var field = event.target;
  var form = field && field.closest && field.closest("form.gk-settle");
  if (!form || field.tagName !== "SELECT") return;
  var codes = form.querySelector("#decision-codes");
  if (codes) codes.checked = true;
});
document.addEventListener("htmx:afterSwap", function (event) {
  var row = event.detail.target;
  if (!row || !row.classList || !row.classList.contains("result-row")) return;
  var form = document.getElementById(row.id) || row;
  if (form.dataset.saved === "1") {
    var next = form.nextElementSibling;
    while (next && !next.querySelector("input.score-input")) next = next.nextElementSibling;
    if (next) next.querySelector("input.score-input").focus();
  } else {
    var bad = form.querySelector("[aria-invalid=true]") || form.querySelector("input.score-input");
    if (bad) bad.focus();
  }
});
// htmx swaps only 2xx by default; 409 (conflict) and 422 (refused) rows carry the messages.
document.addEventListener("htmx:beforeSwap", function (event) {
  var status = event.detail.xhr.status;
  if (status === 409 || status === 422) {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});
// The server could not save (503: its database connection dropped) or was not reached:
// keep what was typed and say so in the row, so the director can send it again.
function showUnsaved(event, text) {
  var row = event.detail.elt && event.detail.elt.closest && event.detail.elt.closest(".result-row");
  if (!row) return;
  var note = row.querySelector(".unsaved") || document.createElement("p");
  note.className = "error unsaved";
  note.setAttribute("role", "alert");
  note.textContent = text;
  row.appendChild(note);
}
document.addEventListener("htmx:responseError", function (event) {
  var xhr = event.detail.xhr;
  showUnsaved(event, (xhr && xhr.getResponseHeader("X-Arbiter-Message")) ||
    "The result was not saved (the server answered " + (xhr ? xhr.status : "nothing") + "). Save it again.");
});
document.addEventListener("htmx:sendError", function (event) {
  showUnsaved(event, "The server could not be reached: the result was not saved. Save it again.");
});
