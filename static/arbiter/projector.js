// The projector pages scroll by themselves: slowly down to the end, a rest, back to the
// top, a rest, and again. When the viewer's system asks for reduced motion they turn a
// screenful at a time instead. The rests last the list's data-pause seconds (#projector).
// The list is swapped in place when results change (htmx, through the version poll); the
// document keeps its scroll, so the screen goes on from where it was.
(function () {
  "use strict";
  var ROWS_PER_SECOND = 0.6;
  var reduce = window.matchMedia("(prefers-reduced-motion: reduce)");
  var scroller = document.scrollingElement || document.documentElement;
  var position = 0;
  var until = 0;
  var last = 0;

  function list() {
    return document.getElementById("projector");
  }

  function pause() {
    var box = list();
    var seconds = box ? parseFloat(box.dataset.pause) : NaN;
    return (isNaN(seconds) ? 6 : seconds) * 1000;
  }

  function rowHeight() {
    var row = document.querySelector("#projector tbody tr");
    return row ? row.getBoundingClientRect().height : 40;
  }

  function screenful() {
    var head = document.querySelector(".projector-head");
    var covered = head ? head.getBoundingClientRect().height : 0;
    // less one row, so that a row cut at the bottom is shown whole on the next screen
    return Math.max(rowHeight(), window.innerHeight - covered - rowHeight());
  }

  function step(now) {
    var elapsed = last ? now - last : 0;
    last = now;
    var end = Math.max(0, scroller.scrollHeight - window.innerHeight);
    if (Math.abs(scroller.scrollTop - position) > 2) {
      // someone scrolled by hand: rest where they left it, then go on from there
      position = scroller.scrollTop;
      until = now + pause();
    }
    if (end <= 1) {
      position = 0; // everything fits on the screen
    } else if (now >= until) {
      if (position >= end - 1) {
        position = 0;
        until = now + pause();
      } else if (reduce.matches) {
        position = Math.min(end, position + screenful());
        until = now + pause();
      } else {
        position = Math.min(end, position + (rowHeight() * ROWS_PER_SECOND * elapsed) / 1000);
        if (position >= end - 1) {
          until = now + pause();
        }
      }
      scroller.scrollTop = position;
    }
    window.requestAnimationFrame(step);
  }

  until = performance.now() + pause();
  window.requestAnimationFrame(step);
})();
