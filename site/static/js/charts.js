/* Papercuts: render every chart on the page with vega-embed.
 *
 * Each <div class="vega-chart" data-spec="spec-ID"> names a
 * <script type="application/json" id="spec-ID"> data island holding a complete
 * Vega-Lite spec whose inline data is named "table". The options keep Vega working
 * under a strict Content-Security-Policy: no eval (ast: true, vega-embed's expression
 * interpreter) and no injected <style> (defaultStyle: false, tooltip default style
 * disabled; site.css styles the tooltip and the actions instead).
 *
 * State for readers and tests, on each .vega-chart:
 *   data-rendered="true" and data-rows="N" (rows bound to the "table" dataset), or
 *   data-error="message".
 */
(function () {
  "use strict";

  var OPTIONS = {
    ast: true,
    renderer: "svg",
    defaultStyle: false,
    tooltip: { disableDefaultStyle: true },
    actions: { export: true, source: false, compiled: false, editor: false }
  };

  function fail(el, err) {
    var message = err && err.message ? err.message : String(err);
    el.dataset.error = message;
    console.error("chart " + (el.dataset.chartId || "?") + ": " + message);
  }

  function readSpec(el) {
    var island = document.getElementById(el.dataset.spec || "");
    if (!island) {
      throw new Error("no spec element #" + el.dataset.spec);
    }
    return JSON.parse(island.textContent);
  }

  function render(el) {
    var spec;
    try {
      spec = readSpec(el);
    } catch (err) {
      fail(el, err);
      return;
    }
    vegaEmbed(el, spec, OPTIONS).then(function (result) {
      el.dataset.rows = String(result.view.data("table").length);
      el.dataset.rendered = "true";
    }).catch(function (err) {
      fail(el, err);
    });
  }

  var charts = document.querySelectorAll(".vega-chart");
  if (typeof vegaEmbed === "undefined") {
    Array.prototype.forEach.call(charts, function (el) {
      fail(el, new Error("vega-embed is not loaded"));
    });
    return;
  }
  Array.prototype.forEach.call(charts, render);
})();
