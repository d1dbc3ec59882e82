/* Papercuts: render every chart on the page with vega-embed.
 *
 * Each <div class="vega-chart" data-spec-url="ID.vl.json"> names the chart's Vega-Lite spec
 * file (same origin), fetched, not inlined in the page. The spec reads its data, named "table",
 * from the chart's CSV beside it (the download link's file: the data is written once), so the
 * loader resolves the spec's relative URLs against the spec's own folder, which is also right for
 * an embed page showing another page's chart. The options keep Vega working
 * under a strict Content-Security-Policy: no eval (ast: true, vega-embed's expression
 * interpreter) and no injected <style> (defaultStyle: false, tooltip default style
 * disabled; site.css styles the tooltip and the actions instead).
 *
 * A chart is drawn when it comes within a screen of the viewport: a page of many charts fetches
 * and draws what its reader reaches, not every CSV on the page before the first screen is ready.
 * Printing asks for every chart; one not drawn when the page is laid out for print prints as
 * its pre-rendered image instead (site.css @media print: a box still data-waiting shows the
 * chart's img.chart-print, which Chromium loads before printing), never as an empty box.
 *
 * State for readers and tests, on each .vega-chart:
 *   data-drawing="true" once its spec is asked for, then
 *   data-rendered="true" and data-rows="N" (rows bound to the "table" dataset), or
 *   data-error="message".
 */
(function () {
  "use strict";

  var OPTIONS_SCALE = { png: 2, svg: 1 };  // exports: PNG at twice the resolution (retina screens)
  var OPTIONS = {
    ast: true,
    renderer: "svg",
    defaultStyle: false,
    tooltip: { disableDefaultStyle: true },
    actions: { export: true, source: false, compiled: false, editor: false }
  };

  // Vega reads CSV with d3-dsv, which builds each row object with `new Function`: refused under
  // the site's Content-Security-Policy (no unsafe-eval). This reader gives Vega the same rows
  // (every cell as text, "" where a row is short; the spec's format.parse types them after) by
  // plain parsing: RFC 4180 as Python's csv module writes it (quoted cells, "" for a quote,
  // newlines inside quotes, \n or \r\n between rows).
  function parseCsv(text) {
    var rows = [], row = [], cell = "", i = 0, n = text.length, c, start;
    while (i < n) {
      c = text.charCodeAt(i);
      if (c === 34 && cell === "" && (i === 0 || text[i - 1] === "," || text[i - 1] === "\n" || text[i - 1] === "\r")) {
        for (i += 1, start = i; ; i += 1) {  // a quoted cell, up to its closing quote
          if (i >= n) { throw new Error("CSV: a quoted cell is not closed"); }
          if (text.charCodeAt(i) === 34) {
            if (text.charCodeAt(i + 1) === 34) { cell += text.slice(start, i + 1); i += 1; start = i + 1; }
            else { cell += text.slice(start, i); i += 1; break; }
          }
        }
      } else if (c === 44) { row.push(cell); cell = ""; i += 1; }
      else if (c === 10 || c === 13) {
        row.push(cell); rows.push(row); row = []; cell = "";
        i += (c === 13 && text.charCodeAt(i + 1) === 10) ? 2 : 1;
      } else {
        for (start = i; i < n && (c = text.charCodeAt(i)) !== 44 && c !== 10 && c !== 13; i += 1) { /* plain text */ }
        cell += text.slice(start, i);
      }
    }
    if (cell !== "" || row.length) { row.push(cell); rows.push(row); }
    return rows;
  }

  function csvReader(data) {
    var table = parseCsv(String(data)), header = table.shift() || [];
    return table.map(function (cells) {
      var o = {};
      for (var k = 0; k < header.length; k += 1) { o[header[k]] = k < cells.length ? cells[k] : ""; }
      return o;
    });
  }
  csvReader.responseType = "text";

  function fail(el, err) {
    var message = err && err.message ? err.message : String(err);
    el.dataset.error = message;
    console.error("chart " + (el.dataset.chartId || "?") + ": " + message);
  }

  function readSpec(el) {
    var url = el.dataset.specUrl;
    if (!url) {
      return Promise.reject(new Error("no data-spec-url"));
    }
    return fetch(url, { credentials: "same-origin" }).then(function (response) {
      if (!response.ok) {
        throw new Error("spec " + url + ": HTTP " + response.status);
      }
      return response.json();
    });
  }

  // On a narrow screen (a phone) a chart drawn at its desktop width would push most of its marks
  // off-screen: fixed numeric widths, of the chart or of each facet, shrink to what fits beside
  // the axis labels. Step widths (heatmap cells) keep their size and the chart box scrolls.
  // Labels are not cut (specs.py CONFIG): two variants differing at their ends would read alike.
  var LABELS_PX = 210;
  var MIN_PX = 120;
  var TITLE_MARGIN_PX = 16;  // Vega's padding (5 px a side), and a little room

  function fitWidth(spec, available) {
    var target = spec.spec && typeof spec.spec.width === "number" ? spec.spec : spec;
    if (typeof target.width === "number" && target.width + 2 * LABELS_PX > available) {
      // A panel's name (point, range, write) goes above its panel, not beside its labels: the
      // labels are whole, and the plot stays on the screen beside them.
      var row = spec.facet && spec.facet.row;
      if (row && row.header) {
        spec.facet = Object.assign({}, spec.facet, {
          row: Object.assign({}, row, { header: Object.assign({}, row.header, { labelOrient: "top" }) })
        });
      }
      target.width = Math.max(MIN_PX, Math.min(target.width, available - LABELS_PX));
    }
    return spec;
  }

  // Vega cuts a title or subtitle line wider than the chart's box (on a phone, most of a
  // comparison's title): each line is wrapped at spaces to the box's width, measured in the
  // font Vega draws it in (its defaults: title 13 px bold, subtitle 12 px).
  var measure = document.createElement("canvas").getContext("2d");

  function textLines(text) {  // a line or lines of plain text; null for anything else (a signal)
    var lines = [].concat(text);
    return lines.every(function (line) { return typeof line === "string"; }) ? lines : null;
  }

  function wrapLines(lines, font, available) {
    measure.font = font;
    var out = [];
    lines.forEach(function (line) {
      var current = "";
      line.split(" ").forEach(function (word) {
        var longer = current ? current + " " + word : word;
        if (current && measure.measureText(longer).width > available) {
          out.push(current);
          current = word;
        } else {
          current = longer;
        }
      });
      out.push(current);
    });
    return out;
  }

  function fitTitle(spec, available) {
    var title = spec.title, config = spec.config || {}, own = config.title || {};
    if (!measure || !title || typeof title !== "object") {
      return spec;
    }
    var text = textLines(title.text), subtitle = title.subtitle ? textLines(title.subtitle) : null;
    spec.title = Object.assign({}, title);
    if (text) {
      var font = title.font || own.font || config.font || "sans-serif";
      spec.title.text = wrapLines(text, "bold " + (title.fontSize || own.fontSize || 13) + "px " + font, available);
    }
    if (subtitle) {
      var subFont = title.subtitleFont || own.subtitleFont || config.font || "sans-serif";
      spec.title.subtitle = wrapLines(subtitle, (title.subtitleFontSize || own.subtitleFontSize || 12) + "px " + subFont,
                                      available);
    }
    return spec;
  }

  function options(el) {
    var opts = Object.assign({}, OPTIONS);
    var spec = new URL(el.dataset.specUrl, window.location.href);
    opts.loader = { baseURL: spec.href.slice(0, spec.href.lastIndexOf("/") + 1) };
    // Exports are named after the chart.
    opts.downloadFileName = el.dataset.chartId || "chart";
    opts.scaleFactor = OPTIONS_SCALE;
    return opts;
  }

  // A chart wider than its box (a heatmap's cells, a ladder's builds on a phone) scrolls inside
  // .vega-chart; a phone shows no scroll bar until the reader scrolls, so site.css writes a note
  // above such a chart (data-wide). Checked again when the box changes width (a phone turned).
  function markWide(el) {
    var check = function () {
      if (el.scrollWidth > el.clientWidth + 1) { el.dataset.wide = "true"; } else { delete el.dataset.wide; }
    };
    check();
    if ("ResizeObserver" in window) {
      new ResizeObserver(check).observe(el);
    }
  }

  function render(el) {
    if (el.dataset.drawing) {
      return;
    }
    el.dataset.drawing = "true";
    readSpec(el).then(function (spec) {
      var available = el.clientWidth || window.innerWidth;
      return vegaEmbed(el, fitTitle(fitWidth(spec, available), available - TITLE_MARGIN_PX), options(el));
    }).then(function (result) {
      window.papercutsExportsByKeyboard(el, result.view, OPTIONS_SCALE);  // exports.js
      el.dataset.rows = String(result.view.data("table").length);
      markWide(el);
      el.dataset.ms = String(Math.round(performance.now()));  // drawn, since navigation began
      el.dataset.rendered = "true";
    }).catch(function (err) {
      fail(el, err);
    }).then(function () {
      delete el.dataset.waiting;
    });
  }

  // Embed snippets hold absolute URLs for a blog post: a build whose baseURL is "/" writes them
  // root-relative, and the page's own origin completes them (as text: nothing is parsed as HTML).
  Array.prototype.forEach.call(document.querySelectorAll("code.snippet"), function (el) {
    el.textContent = el.textContent.replace(/(src|href)="\/(?!\/)/g, "$1=\"" + window.location.origin + "/");
  });

  // An embed page in a frame tells the page around it how tall it is, whenever that changes (the
  // chart drawn, its title wrapped, the frame resized) and when that page's script asks (it may
  // start after this page: a blog deferring its scripts): the snippet's script (embed-host.js)
  // sets the frame's height, so the chart shows whole, without a scroll bar of its own.
  if (document.body && document.body.classList.contains("embed") && window.parent !== window) {
    var tellHeight = function () {
      var height = Math.ceil(document.documentElement.getBoundingClientRect().height);
      window.parent.postMessage({ papercutsHeight: height }, "*");
    };
    window.addEventListener("message", function (e) {
      if (e.source === window.parent && e.data === "papercutsHeight?") {
        tellHeight();
      }
    });
    if ("ResizeObserver" in window) {
      new ResizeObserver(tellHeight).observe(document.documentElement);
    }
  }

  var charts = document.querySelectorAll(".vega-chart");
  if (typeof vega !== "undefined") {
    vega.formats("csv", csvReader);
  }
  if (typeof vegaEmbed === "undefined") {
    Array.prototype.forEach.call(charts, function (el) {
      fail(el, new Error("vega-embed is not loaded"));
    });
    return;
  }
  var each = function (fn) { Array.prototype.forEach.call(charts, fn); };
  if (!("IntersectionObserver" in window)) {
    each(render);
    return;
  }
  var near = new IntersectionObserver(function (entries) {
    entries.forEach(function (entry) {
      if (entry.isIntersecting) {
        near.unobserve(entry.target);
        render(entry.target);
      }
    });
  }, { rootMargin: "100% 0px" });
  each(function (el) {
    el.dataset.waiting = "true";  // site.css keeps a chart's room until it is drawn
    near.observe(el);
  });
  window.addEventListener("beforeprint", function () { each(render); });
})();
