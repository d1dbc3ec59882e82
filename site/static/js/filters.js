/* Papercuts: filter the rows of the regressions table by the selects above it.
 * Each <select data-filter="NAME"> keeps the rows whose data-NAME equals its value ("" = all).
 * No inline script, no eval: it runs under the site's Content-Security-Policy. */
(function () {
  "use strict";
  var form = document.querySelector("form.filters");
  if (!form) {
    return;
  }
  var selects = form.querySelectorAll("select[data-filter]");
  var rows = document.querySelectorAll("table.changes tbody tr");
  var shown = form.querySelector("output.shown");
  // The table may show the largest of more changes (data-total): the count says of which.
  var of = Number(form.dataset.total) > rows.length ? " of the " + rows.length + " largest changes"
    : " of " + rows.length + " changes";

  function apply() {
    var count = 0;
    Array.prototype.forEach.call(rows, function (row) {
      var keep = Array.prototype.every.call(selects, function (s) {
        return !s.value || row.dataset[s.dataset.filter] === s.value;
      });
      row.hidden = !keep;
      count += keep ? 1 : 0;
    });
    if (shown) {
      shown.textContent = count + of;
    }
  }

  Array.prototype.forEach.call(selects, function (s) {
    s.addEventListener("change", apply);
  });
  form.addEventListener("submit", function (e) { e.preventDefault(); });
  apply();
})();
