// Result entry: the cursor starts in the first match without a result (a saved forfeit
// has no discs, but it is not pending: data-pending marks the rows still to enter); Enter
// saves a row, from a box or from a menu (how the game ended, who defaulted); after a save,
// by Enter or by a click on Save, the cursor moves to the next match without a result.
// A correction's preview puts the cursor in its "Why" box, where Enter confirms it.
function firstBox(row) {
  return row && row.querySelector("input.score-input");
}
document.addEventListener("DOMContentLoaded", function () {
  var rows = document.getElementById("result-rows");
  if (!rows) return;
  var box = firstBox(rows.querySelector("form.result-row[data-pending]"));
  if (box) box.focus();
});
// A menu inside a part of the row with its own button (GokoDom's result codes, "who goes
// through") saves with that button, as a click would: the row's own Save would refuse them.
document.addEventListener("keydown", function (event) {
  var field = event.target;
  if (event.key !== "Enter" || !field || !field.closest) return;
  var form = field.closest("form.result-row, form[data-enter-saves]");
  if (!form) return;
  // in the preview (the "Why" box, the "pair again" choice) Enter confirms what was
  // previewed; the form's first button would only preview it again
  var confirm = field.closest(".correction-preview") && form.querySelector("button.confirm");
  if (confirm && field.tagName !== "BUTTON" && field.tagName !== "A") {
    event.preventDefault();
    confirm.click();
    return;
  }
  if (field.tagName !== "SELECT") return;
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
    while (next && !(next.matches("form.result-row[data-pending]") && firstBox(next))) {
      next = next.nextElementSibling;
    }
    if (next) firstBox(next).focus();
    return;
  }
  var bad = form.querySelector("[aria-invalid=true]");
  var why = form.querySelector(".correction-preview input[name=reason]");
  var target = bad || why || firstBox(form);
  if (target) target.focus();
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
