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
// Live updates: where the browser has EventSource, the page follows the event's stream
// (/api/v1/events/<slug>/stream) and the version poller (#live-poller) asks only when the
// stream tells of a token the page does not have. While the stream is not open (refused
// without Redis, reconnecting, ended) the poller asks every few seconds as before.
(function () {
  "use strict";
  var source = null;
  var open = false;
  var asked = false;
  var KINDS = ["version", "round_published", "result_saved", "standings_changed"];

  function poller() {
    return document.getElementById("live-poller");
  }

  function changed(message) {
    var box = poller();
    var data;
    try {
      data = JSON.parse(message.data);
    } catch (error) {
      return;
    }
    if (box && window.htmx && data.token !== box.dataset.version) {
      asked = true;
      window.htmx.trigger(box, "arbiter-stream");
    }
  }

  function follow() {
    var box = poller();
    if (!box || !box.dataset.stream || !window.EventSource) {
      return;
    }
    source = new EventSource(box.dataset.stream);
    source.addEventListener("open", function () {
      open = true;
      document.documentElement.dataset.live = "stream";
    });
    source.addEventListener("error", function () {
      open = false; // the poller asks meanwhile; the browser reconnects unless refused
      document.documentElement.dataset.live = "poll";
    });
    KINDS.forEach(function (kind) {
      source.addEventListener(kind, changed);
    });
    source.addEventListener("end", function () {
      source.close();
      open = false;
      document.documentElement.dataset.live = "poll";
    });
  }

  // the poller's timed asks stay quiet while the stream is open; one the stream asked for goes
  document.addEventListener("htmx:confirm", function (event) {
    if (event.target.id !== "live-poller" || !open) {
      return;
    }
    if (asked) {
      asked = false;
    } else {
      event.preventDefault();
    }
  });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", follow);
  } else {
    follow();
  }
})();
