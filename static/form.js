// Score form niceties; the form works without them.
// Headings that show a player's name follow the name as it is typed.
(function () {
  "use strict";
  document.querySelectorAll('input[name$=".name"], input[data-names]').forEach(function (input) {
    var placeholders = {};
    document.querySelectorAll('[data-name-of="' + input.name + '"]').forEach(function (el, i) {
      placeholders[i] = el.dataset.fallback || el.textContent;
      if (!input.value) { el.dataset.fallback = el.textContent; }
    });
    input.addEventListener("input", function () {
      document.querySelectorAll('[data-name-of="' + input.name + '"]').forEach(function (el, i) {
        el.textContent = input.value.trim() || el.dataset.fallback || placeholders[i];
      });
    });
  });
})();
