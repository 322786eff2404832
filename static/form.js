// Score form niceties; the form works without them.
// Headings that show a player's name follow the name as it is typed.
(function () {
  "use strict";
  document.querySelectorAll('input[name$=".name"], input[data-names]').forEach(function (input) {
    var placeholders = {};
    // a player's name box "players.2.name" also names the choices of seat 2 ("players.2")
    var named = '[data-name-of="' + input.name + '"]' + (/^players\.\d+\.name$/.test(input.name)
      ? ', [data-name-of="' + input.name.slice(0, -5) + '"]' : "");
    document.querySelectorAll(named).forEach(function (el, i) {
      placeholders[i] = el.dataset.fallback || el.textContent;
      if (!input.value) { el.dataset.fallback = el.textContent; }
    });
    input.addEventListener("input", function () {
      document.querySelectorAll(named).forEach(function (el, i) {
        el.textContent = input.value.trim() || el.dataset.fallback || placeholders[i];
      });
    });
  });
})();

// After an error the summary at the top is focused (a screen reader reads it, the page starts
// there); each of its links moves to the input in error and puts the cursor in it, with its
// label in view, even inside a closed "Options" section.
(function () {
  "use strict";
  var summary = document.getElementById("error-summary");
  if (!summary) { return; }
  summary.focus();
  summary.querySelectorAll('a[href^="#"]').forEach(function (link) {
    link.addEventListener("click", function (event) {
      var target = document.getElementById(decodeURIComponent(link.hash.slice(1)));
      if (!target) { return; }
      event.preventDefault();
      var details = target.closest("details");
      if (details) { details.open = true; }
      var field = target.matches("input, select, textarea") ? target
        : target.querySelector("input, select, textarea");
      var shown = target.closest("label, fieldset") || target;
      shown.scrollIntoView({block: "start"});
      if (field) { field.focus({preventScroll: true}); }
      if (history.replaceState) { history.replaceState(null, "", link.hash); }
    });
  });
})();
