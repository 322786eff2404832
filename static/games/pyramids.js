// Silver & Gold – Pyramids: nicer tapping on the phone page and on the grid editor of our copy.
// Not needed: without it the chambers are checkboxes that a tap ticks, and the referee reads
// them on the server; on the editor every chamber is a choice.
// With it: the taps are read as you go (the revealed pattern on one card, the extra marks its
// red crosses ask for) and said under the cards, from the markings the referee accepts, which
// the page lists (the rules stay on the server); and the taps survive the page refreshing
// itself when another phone marks (static/live.js replaces the live area).
(function () {
  "use strict";

  // ---- our copy: paint a published card's chambers with a tap (the selects stay the form) --
  var editor = document.querySelector("form.pg-editor");
  if (editor) {
    var palette = editor.querySelector(".pg-palette");
    var brush = ".";
    var SVG = "http://www.w3.org/2000/svg";
    palette.hidden = false;
    editor.classList.add("painting");
    palette.addEventListener("click", function (event) {
      var button = event.target.closest("button[data-code]");
      if (!button) { return; }
      brush = button.dataset.code;
      Array.prototype.forEach.call(palette.querySelectorAll("button"), function (b) {
        b.setAttribute("aria-pressed", b === button ? "true" : "false");
      });
    });
    editor.querySelector(".pg-edit-grid").addEventListener("click", function (event) {
      var cell = event.target.closest(".pg-edit");
      if (!cell) { return; }
      event.preventDefault();
      cell.querySelector("select").value = JSON.stringify(brush);
      cell.dataset.code = brush;
      cell.classList.toggle("pg-wall", brush === "#");
      var face = cell.querySelector(".pg-face");
      face.textContent = "";
      if ("EBXRGTSP".indexOf(brush) >= 0) {
        var svg = document.createElementNS(SVG, "svg");
        svg.setAttribute("class", "pg-sym");
        var use = document.createElementNS(SVG, "use");
        use.setAttribute("href", "#pg-" + brush);
        svg.appendChild(use);
        face.appendChild(svg);
      }
    });
  }

  var live = document.getElementById("live");
  if (!live || !window.sessionStorage || !window.JSON) { return; }
  var STORE = "pyramids-taps:" + window.location.pathname;

  function say(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_, key) { return values[key]; });
  }
  // one sentence per count, in the plural form of the page's language ({"1": …, "2": …})
  function sayCount(forms, n) {
    var all = JSON.parse(forms);
    return all[String(n)] || all[String(Object.keys(all).length)];
  }
  function contains(cells, ids) {
    return ids.every(function (id) { return cells.indexOf(id) >= 0; });
  }

  // ---- reading the taps as the referee will ------------------------------------------------
  // No rules here: the page lists every marking the referee accepts this step (data-markings:
  // all its chambers, sorted → its pattern or single chamber; rules/pyramids/phones.py
  // legal_markings) and the places of the pattern it refuses with the reason (data-blocked,
  // data-why). The taps are looked up: "fits" only for a marking the referee accepts.
  function tapId(cell) {
    return cell.closest("[data-card]").dataset.card + ":" + cell.dataset.row + ":" + cell.dataset.col;
  }
  function read(form) {
    var size = Number(form.dataset.size);
    var taps = Array.prototype.slice.call(form.querySelectorAll(".pg-tap"));
    var picked = taps.filter(function (cell) { return cell.querySelector("input").checked; });
    var ids = picked.map(tapId);
    taps.forEach(function (cell) { cell.classList.remove("pattern", "extra"); });
    var line = form.querySelector(".pg-reading");
    line.className = "pg-reading";
    if (!picked.length) { line.textContent = form.dataset.textNone; return; }
    if (!form.dataset.markings) { line.textContent = form.dataset.textUnchecked; return; }
    var markings = JSON.parse(form.dataset.markings);
    function show(mainKey) {
      var main = mainKey.split(" ");
      picked.forEach(function (cell, i) {
        cell.classList.add(main.indexOf(ids[i]) >= 0 ? "pattern" : "extra");
      });
    }
    function fits(mainKey) {
      return mainKey.split(" ").length === 1 && size > 1 ? form.dataset.textSingle : form.dataset.textPattern;
    }
    var key = ids.slice().sort().join(" ");
    if (Object.prototype.hasOwnProperty.call(markings, key)) {
      show(markings[key]);
      line.className = "pg-reading ok";
      line.textContent = fits(markings[key]);
      return;
    }
    // markings the taps are part of: the pattern is still short, or red crosses ask for more
    var grow = null, within = null;
    Object.keys(markings).forEach(function (all) {
      var cells = all.split(" "), main = markings[all].split(" ");
      if (contains(cells, ids)) {
        var reading = { main: markings[all], done: contains(ids, main), missing: cells.length - ids.length,
                        inMain: main.filter(function (id) { return ids.indexOf(id) >= 0; }).length };
        if (!grow || (reading.done && !grow.done) || (reading.done === grow.done &&
            (reading.done ? reading.missing < grow.missing : reading.inMain > grow.inMain))) { grow = reading; }
      } else if (contains(ids, cells) && (!within || cells.length > within.size)) {
        within = { main: markings[all], size: cells.length };
      }
    });
    line.className = "pg-reading due";
    if (grow && grow.done) {
      show(grow.main);
      line.textContent = fits(grow.main) + " " + sayCount(form.dataset.textDue, grow.missing);
      return;
    }
    if (grow) {
      line.textContent = say(form.dataset.textShort, { n: grow.inMain, size: size });
      return;
    }
    line.className = "pg-reading no";
    var blocked = JSON.parse(form.dataset.blocked || "{}");
    var refused = Object.keys(blocked).filter(function (place) { return contains(ids, place.split(" ")); })[0];
    if (refused) {
      line.textContent = JSON.parse(form.dataset.why)[blocked[refused]];
    } else if (within) {
      show(within.main);
      line.textContent = fits(within.main) + " " + sayCount(form.dataset.textOver, ids.length - within.size);
    } else {
      line.textContent = form.dataset.textRefused;
    }
  }

  // ---- keeping the taps of this step across refreshes -------------------------------------
  function saved() {
    try { return JSON.parse(sessionStorage.getItem(STORE)) || {}; } catch (e) { return {}; }
  }
  function save(form) {
    var values = Array.prototype.map.call(form.querySelectorAll("input[type=checkbox]:checked"),
                                          function (input) { return input.value; });
    sessionStorage.setItem(STORE, JSON.stringify({ step: form.dataset.step, values: values }));
  }
  function restore(form) {
    var kept = saved();
    if (kept.step !== form.dataset.step) { sessionStorage.removeItem(STORE); return; }
    if (form.querySelector("input[type=checkbox]:checked")) { return; }   // the server's own
    Array.prototype.forEach.call(form.querySelectorAll("input[type=checkbox]"), function (input) {
      if (kept.values.indexOf(input.value) >= 0) { input.checked = true; }
    });
  }

  function bind() {
    Array.prototype.forEach.call(live.querySelectorAll("form[data-step]"), function (form) {
      if (form.dataset.bound) { return; }
      form.dataset.bound = "1";
      restore(form);
      if (form.dataset.size) { read(form); }
      form.addEventListener("change", function () {
        save(form);
        if (form.dataset.size) { read(form); }
      });
    });
  }

  bind();
  if (window.MutationObserver) {
    new MutationObserver(bind).observe(live, { childList: true });
  }
})();
