/* Papercuts: a chart's "Save as SVG/PNG" links, followed from the keyboard.
 *
 * vega-embed gives these links their image on mousedown: followed from the keyboard (Enter, no
 * mousedown) a link still pointed at "#" and saved the page's own HTML under the image's name.
 * Here the image is made as soon as the link has the focus, as a reader tabs to it; Enter pressed
 * before it is ready waits for it (and follows the link from script, in this tab).
 *
 * One function for the two scripts that draw charts, which no page loads together: charts.js (the
 * site's pages and the embed pages) and explore.js (the explorer). Loaded before either.
 */
(function () {
  "use strict";

  window.papercutsExportsByKeyboard = function (el, view, scale) {
    Array.prototype.forEach.call(el.querySelectorAll(".vega-actions a[download]"), function (a) {
      var type = /\.(svg|png)$/.exec(a.getAttribute("download") || "");
      var image = null;
      if (!type) {
        return;
      }
      var make = function () {
        image = image || view.toImageURL(type[1], scale[type[1]]).then(function (url) {
          if (a.getAttribute("href") === "#") {
            a.href = url;
          }
          return url;
        });
        return image;
      };
      a.addEventListener("focus", make);
      a.addEventListener("click", function (e) {
        if (a.getAttribute("href") !== "#") {
          return;
        }
        e.preventDefault();
        make().then(function () {
          a.removeAttribute("target");
          a.click();
        });
      });
    });
  };
})();
