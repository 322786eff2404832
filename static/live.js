// Live table: follow the table's versions over Server-Sent Events and refresh the page's
// live area when another phone moves. The page works without this (reload by hand).
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live || !window.EventSource || !window.fetch) { return; }
  var indicator = live.querySelector(".live-indicator");
  var refreshing = false, again = false;

  function version() { return parseInt(live.dataset.version, 10); }

  function refresh() {
    if (refreshing) { again = true; return; }
    refreshing = true;
    fetch(window.location.pathname, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.text(); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("live");
        if (fresh) {
          live.innerHTML = fresh.innerHTML;
          live.dataset.version = fresh.dataset.version;
          indicator = live.querySelector(".live-indicator");
        }
      })
      .catch(function () { /* the next event tries again */ })
      .then(function () {
        refreshing = false;
        if (again) { again = false; refresh(); }
      });
  }

  var source = new EventSource(live.dataset.events);
  source.addEventListener("version", function (event) {
    if (indicator) { indicator.hidden = true; }
    var announced = JSON.parse(event.data).version;
    if (announced !== version()) { refresh(); }
  });
  source.addEventListener("error", function () {
    if (indicator) { indicator.hidden = false; }   // EventSource reconnects by itself
  });
})();
