// Live table: follow the table's versions over Server-Sent Events and refresh the page's
// live area when another phone moves. The page works without this (reload by hand).
//
// The live area is morphed into the fresh page (idiomorph, vendored under static/vendor/),
// never replaced: a field this person has touched (typed into, chosen, ticked) keeps its value
// and its options, and focus stays where it was, whatever another phone does meanwhile. A
// field nobody touched follows the table (a hidden version, a new default).
//
// A stream that drops shows "reconnecting…" and comes back by itself: the browser's own
// reconnect sends the last version it was told (Last-Event-ID); when the browser gives up, or
// the stream goes quiet past its keep-alive (a phone that changed networks), this script opens
// a new one from the page's version (?version=N). Either way the server starts with what was
// missed, and the page refreshes if it is behind.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live || !window.EventSource || !window.fetch) { return; }
  // The page to refresh from: this one, or the table's page when this is the answer to a
  // form (a refused move), whose own address takes no GET; the address bar says so too, so
  // that a reload shows the table instead of sending the form again.
  var script = document.currentScript;
  var page = script && script.dataset.page || window.location.pathname;
  if (page !== window.location.pathname && window.history.replaceState) {
    window.history.replaceState(null, "", page);
  }
  var QUIET_MS = 40000;            // the server sends an "alive" event every 15 s
  var source = null, retryTimer = null, retryDelay = 1000, quietTimer = null;
  var refreshing = false, again = false, againForSeats = false, refreshTimer = null;
  var newest = 0;                  // the newest version the stream told of
  var touched = new WeakSet();     // fields this person changed since the page was loaded

  function touch(event) {
    var field = event.target;
    if (!field || !field.form && !field.name) { return; }
    touched.add(field);
    // A radio button changes its whole group: keep every button of it as it is now.
    if (field.type === "radio" && field.form && field.name) {
      Array.prototype.forEach.call(field.form.elements, function (other) {
        if (other.type === "radio" && other.name === field.name) { touched.add(other); }
      });
    }
  }
  live.addEventListener("input", touch, true);
  live.addEventListener("change", touch, true);
  // A section this person opened or closed stays so (its content still follows the table).
  var toggled = new WeakSet();
  live.addEventListener("click", function (event) {
    var summary = event.target.closest && event.target.closest("summary");
    if (summary && summary.parentElement.tagName === "DETAILS") {
      toggled.add(summary.parentElement);
    }
  }, true);
  // A refused move's form comes back as the person entered it (data-entered): theirs too.
  Array.prototype.forEach.call(live.querySelectorAll("[data-entered]"), function (field) {
    touched.add(field);
  });

  // Where an element sits, in words that survive another phone's move: a field by its form
  // (address, move, rank among forms alike) and its name (rank among fields alike); a
  // section by its summary's text (rank among sections alike).
  function keyOf(element, root) {
    var rank = function (list, item) { return Array.prototype.indexOf.call(list, item); };
    if (element.tagName === "DETAILS") {
      var text = function (d) { var s = d.querySelector("summary"); return s ? s.textContent : ""; };
      var alike = Array.prototype.filter.call(root.querySelectorAll("details"), function (d) {
        return text(d) === text(element);
      });
      return "details|" + text(element) + "|" + rank(alike, element);
    }
    var form = element.form;
    if (!form) { return null; }
    var formKey = function (f) {
      var move = f.querySelector("input[name=move]");
      return f.getAttribute("action") + "|" + (move ? move.value : "");
    };
    var forms = Array.prototype.filter.call(root.querySelectorAll("form"), function (f) {
      return formKey(f) === formKey(form);
    });
    var named = Array.prototype.filter.call(form.elements, function (f) {
      return f.name === element.name;
    });
    return formKey(form) + "|" + rank(forms, form) + "|" + element.name + "|" + rank(named, element);
  }

  // Idiomorph keeps a node (and moves it) when it finds the same id in the fresh page; a
  // touched field or an opened section without an id gets one, on both sides, for the morph.
  function pair(fresh) {
    var kept = [];
    var mine = {};
    live.querySelectorAll("input, select, textarea, details").forEach(function (element) {
      if (!touched.has(element) && !toggled.has(element) &&
          element !== document.activeElement) { return; }
      var key = keyOf(element, live);
      if (key !== null) { mine[key] = element; }
    });
    fresh.querySelectorAll("input, select, textarea, details").forEach(function (element) {
      var key = keyOf(element, fresh);
      var old = key !== null && mine[key];
      if (!old) { return; }
      if (!old.id) { old.id = "kept-" + kept.length; kept.push(old); }
      element.id = old.id;
    });
    return kept;
  }

  function morph(fresh) {
    if (!window.Idiomorph) { live.innerHTML = fresh.innerHTML; return; }
    var kept = pair(fresh);
    window.Idiomorph.morph(live, fresh.childNodes, {
      morphStyle: "innerHTML",
      restoreFocus: true,
      callbacks: {
        // A touched field is left exactly as the person left it (value, selection, options).
        beforeNodeMorphed: function (oldNode) { return !touched.has(oldNode); },
        beforeAttributeUpdated: function (name, node) {
          return !(name === "open" && toggled.has(node));
        }
      }
    });
    kept.forEach(function (element) {
      if (element.id.indexOf("kept-") === 0) { element.removeAttribute("id"); }
    });
  }

  function version() { return parseInt(live.dataset.version, 10); }
  // How many times the seats and requests changed (a phone joined, a seat asks to undo); a
  // page without it takes the first count the stream tells as the one it shows.
  function seats() { return live.dataset.seats ? parseInt(live.dataset.seats, 10) : null; }

  function showReconnecting(shown) {
    var indicator = live.querySelector(".live-indicator");
    if (indicator) { indicator.hidden = !shown; }
  }

  function refresh(forSeats) {
    if (refreshing) { again = true; againForSeats = againForSeats || !!forSeats; return; }
    refreshing = true;
    fetch(page, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) {
        if (!r.ok && r.status !== 409) { throw new Error("HTTP " + r.status); }
        return r.text();
      })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("live");
        if (fresh) {
          morph(fresh);
          live.dataset.version = fresh.dataset.version;
          if (fresh.dataset.seats) { live.dataset.seats = fresh.dataset.seats; }
          // how many refreshes this page has taken in place (tests wait for it)
          live.dataset.refreshed = (parseInt(live.dataset.refreshed || "0", 10) + 1).toString();
        }
        showReconnecting(!source || source.readyState !== EventSource.OPEN);
      })
      .catch(function () {
        // Offline for a moment: say so, and try again until the page is current.
        showReconnecting(true);
        if (!refreshTimer) {
          refreshTimer = setTimeout(function () { refreshTimer = null; refresh(); }, 2000);
        }
      })
      .then(function () {
        refreshing = false;
        // Once more if something was told meanwhile and the page is still behind it: a
        // refresh that already brought the newest version needs no second one (whose morph
        // would also close again what a script just opened).
        var behind = again && (newest > version() || againForSeats);
        again = againForSeats = false;
        if (behind) { refresh(); }
      });
  }

  function heard(event) {
    retryDelay = 1000;
    showReconnecting(false);
    watchQuiet();
    // Versions only grow: an event of a version the page already shows or passed (a stream
    // catching up after a burst of moves tells every version in order) needs no refresh.
    var told = JSON.parse(event.data).version;
    newest = Math.max(newest, told);
    if (told > version()) { refresh(); }
  }

  function watchQuiet() {
    clearTimeout(quietTimer);
    quietTimer = setTimeout(function () { showReconnecting(true); connect(); }, QUIET_MS);
  }

  function reconnectLater() {
    if (retryTimer) { return; }
    retryTimer = setTimeout(function () { retryTimer = null; connect(); }, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 15000);
  }

  function connect() {
    if (source) { source.close(); }
    clearTimeout(retryTimer);
    retryTimer = null;
    var url = live.dataset.events;
    url += (url.indexOf("?") < 0 ? "?" : "&") + "version=" + version();
    source = new EventSource(url);
    source.addEventListener("version", heard);
    source.addEventListener("alive", heard);
    source.addEventListener("seats", function (event) {
      var told = JSON.parse(event.data).seats;
      if (seats() === null) { live.dataset.seats = told; }
      else if (told !== seats()) { live.dataset.seats = told; refresh(true); }
    });
    source.addEventListener("error", function () {
      showReconnecting(true);
      // CONNECTING: the browser retries by itself. CLOSED: it gave up (a server error
      // page, a proxy's answer); we do not.
      if (source.readyState === EventSource.CLOSED) { reconnectLater(); }
    });
    watchQuiet();
  }

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && (!source || source.readyState === EventSource.CLOSED)) { connect(); }
  });
  window.addEventListener("online", connect);
  connect();
})();
