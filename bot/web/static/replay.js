// A replay's keys: left and right step through the moves, Home and End jump (the
// buttons are plain links, so the replay works without this script too).
(function () {
  "use strict";
  var keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) { return; }
    var id = keys[e.key];
    var link = id && document.getElementById(id);
    if (!link) { return; }
    e.preventDefault();
    window.location.assign(link.href);
  });
})();
