// "copy link" buttons (the director's entrant list): each names the element whose text it
// copies in data-copy. They stay hidden without this script, where the link is plain
// selectable text. Delegated from the document, so rows htmx swaps in work too.
(function () {
  function reveal(root) {
    root.querySelectorAll("button[data-copy][hidden]").forEach(function (button) {
      button.hidden = false;
    });
  }

  function selectText(element) {
    var range = document.createRange();
    range.selectNodeContents(element);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  function copied(button) {
    var label = button.dataset.label || button.textContent;
    button.dataset.label = label;
    button.textContent = button.dataset.copied || "copied";
    window.setTimeout(function () { button.textContent = label; }, 2000);
  }

  document.addEventListener("DOMContentLoaded", function () { reveal(document); });
  document.addEventListener("htmx:load", function (event) { reveal(event.target); });

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-copy]");
    if (!button) return;
    var source = document.getElementById(button.dataset.copy);
    if (!source) return;
    var text = source.textContent.trim();
    function fallback() {
      // older browsers, or a page served over plain http: copy the selection
      selectText(source);
      try { document.execCommand("copy"); copied(button); } catch (error) { /* selected */ }
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { copied(button); }, fallback);
    } else {
      fallback();
    }
  });
})();
