// Live pages: a match's stream (server-sent events) brings its live part with each
// move, swapped in as it comes; a bare notice (a server's pages, or a part too long for
// an event) fetches the part. The clock of the player to move counts down. Without
// this script the page reloads itself (a <noscript> refresh).
(function () {
  "use strict";
  var live = document.getElementById("live");
  var since = Date.now();
  function fmt(s) {
    s = Math.max(0, Math.ceil(s - 1e-9));
    var sec = s % 60;
    return Math.floor(s / 60) + ":" + (sec < 10 ? "0" : "") + sec;
  }
  function banks(n) { return n === 1 ? "1 bank" : n + " banks"; }
  function tick() {
    var gone = (Date.now() - since) / 1000;
    document.querySelectorAll(".clock[data-flag]").forEach(function (c) {
      // data-turn and data-flag are instants on the server's clock, data-now when the
      // page was served: what is left then, less the time since.
      var now = parseFloat(c.dataset.now) + gone;
      var turn = parseFloat(c.dataset.turn) - now;
      var flag = parseFloat(c.dataset.flag) - now;
      var n = parseInt(c.dataset.banks, 10);
      if (turn > 0) {
        c.textContent = n > 0 ? fmt(turn) + " + " + banks(n) : fmt(turn) + ", no reserve left";
      } else {
        c.textContent = "on reserve, " + fmt(flag) + " left";
      }
    });
  }
  setInterval(tick, 250);
  if (!live || !live.dataset.events || !window.EventSource) { return; }
  var busy = false, again = false, pushed = 0;
  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    var seen = pushed;
    fetch(live.dataset.part, { cache: "no-store", credentials: "omit" })
      .then(function (r) {
        if (r.status === 404) { window.location.reload(); return null; }
        return r.ok ? r.text() : null;
      })
      .then(function (html) {
        // A part pushed meanwhile is newer than this one.
        if (typeof html === "string" && seen === pushed) { live.innerHTML = html; since = Date.now(); }
      })
      .catch(function () { /* the next notice tries again */ })
      .then(function () { busy = false; if (again) { again = false; refresh(); } });
  }
  var source = new EventSource(live.dataset.events);
  source.addEventListener("change", refresh);
  source.addEventListener("live", function (e) {
    pushed += 1;
    live.innerHTML = e.data;
    since = Date.now();
  });
  source.addEventListener("gone", function () { source.close(); window.location.reload(); });
})();
