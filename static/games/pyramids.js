// Silver & Gold – Pyramids: nicer tapping on the phone page and on the grid editor of our copy.
// Not needed: without it the chambers are checkboxes that a tap ticks, and the referee reads
// them on the server; on the editor every chamber is a choice.
// With it: the taps are read as you go (the revealed pattern on one card, the extra marks its
// red crosses ask for) and said under the cards; and the taps survive the page refreshing
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

  // ---- shapes: every rotation and mirror image, normalised ------------------------------
  function normalise(cells) {
    var top = Math.min.apply(null, cells.map(function (c) { return c[0]; }));
    var left = Math.min.apply(null, cells.map(function (c) { return c[1]; }));
    return cells.map(function (c) { return [c[0] - top, c[1] - left]; })
      .sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; })
      .map(function (c) { return c[0] + "," + c[1]; }).join(" ");
  }
  function orientations(cells) {
    var forms = {}, current = cells.slice();
    for (var turn = 0; turn < 4; turn++) {
      current = current.map(function (c) { return [c[1], -c[0]]; });
      forms[normalise(current)] = true;
      forms[normalise(current.map(function (c) { return [c[0], -c[1]]; }))] = true;
    }
    return forms;
  }
  function combinations(items, k) {
    var out = [];
    (function pick(start, chosen) {
      if (chosen.length === k) { out.push(chosen.slice()); return; }
      for (var i = start; i < items.length; i++) { chosen.push(items[i]); pick(i + 1, chosen); chosen.pop(); }
    })(0, []);
    return out;
  }
  function say(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_, key) { return values[key]; });
  }
  // one sentence per count, in the plural form of the page's language ({"1": …, "2": …})
  function sayCount(forms, n) {
    var all = JSON.parse(forms);
    return all[String(n)] || all[String(Object.keys(all).length)];
  }

  // ---- reading the taps, as the referee will (marking.read_marks), to show it --------------
  function read(form) {
    var shape = JSON.parse(form.dataset.shape);
    var forms = orientations(shape);
    var taps = Array.prototype.slice.call(form.querySelectorAll(".pg-tap"));
    var picked = taps.filter(function (cell) { return cell.querySelector("input").checked; });
    taps.forEach(function (cell) { cell.classList.remove("pattern", "extra"); });
    var byCard = {};
    picked.forEach(function (cell) {
      var card = cell.closest("[data-card]").dataset.card;
      (byCard[card] = byCard[card] || []).push(cell);
    });
    var pattern = null;
    Object.keys(byCard).some(function (card) {
      return combinations(byCard[card], shape.length).some(function (chosen) {
        var key = normalise(chosen.map(function (c) { return [+c.dataset.row, +c.dataset.col]; }));
        if (forms[key]) { pattern = chosen; return true; }
        return false;
      });
    });
    var line = form.querySelector(".pg-reading");
    var crosses = picked.filter(function (c) { return c.dataset.code === "X"; }).length;
    line.className = "pg-reading";
    if (!picked.length) { line.textContent = form.dataset.textNone; return; }
    var main = pattern || (picked.length === 1 ? picked : null);
    if (!main) {
      // one chamber and its chain: the rest are extra marks when a red cross is among them
      if (crosses) { main = [picked.filter(function (c) { return c.dataset.code === "X"; })[0]]; }
      else {
        line.textContent = say(form.dataset.textShort, { n: picked.length, size: shape.length });
        return;
      }
    }
    picked.forEach(function (cell) {
      cell.classList.add(main.indexOf(cell) >= 0 ? "pattern" : "extra");
    });
    var extras = picked.length - main.length;
    var text = main.length === 1 && shape.length > 1 ? form.dataset.textSingle : form.dataset.textPattern;
    if (extras < crosses) {
      line.className = "pg-reading due";
      text += " " + sayCount(form.dataset.textDue, crosses - extras);
    } else if (extras > crosses) {
      line.className = "pg-reading due";
      text += " " + sayCount(form.dataset.textOver, extras - crosses);
    } else {
      line.className = "pg-reading ok";
    }
    line.textContent = text;
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
      if (form.dataset.shape) { read(form); }
      form.addEventListener("change", function () {
        save(form);
        if (form.dataset.shape) { read(form); }
      });
    });
  }

  bind();
  if (window.MutationObserver) {
    new MutationObserver(bind).observe(live, { childList: true });
  }
})();
