/* Papercuts explorer: any base, any builds, filters, and a URL that keeps the view.
 *
 * Reads one columnar data file per server (render/explore.py writes it; the browser caches it),
 * recomputes rQPS = QPS / base QPS from the absolute numbers of one campaign, and draws the
 * chosen view with vega-embed under the site's CSP (ast: true: no eval). Every contributed
 * string (names, titles, my.cnf text) goes into the page as text (textContent, option text) or
 * into Vega as data, never as markup, an expression or a channel title.
 *
 * State for readers and tests, on #explore-chart: data-rendered="N" (a counter, one per drawing),
 * data-rows="N" (rows drawn), data-ms (milliseconds from the choice to the drawn chart, for
 * `make bench`), or data-error="message".
 */
(function () {
  "use strict";

  var form = document.getElementById("explore-controls");
  if (!form) {
    return;
  }
  // The page hides the controls and views from a reader without JavaScript (they do nothing
  // there; its <noscript> says so): this script is what makes them work, so it shows them.
  var app = document.getElementById("explore-app");
  if (app) {
    app.hidden = false;
  }
  var chartEl = document.getElementById("explore-chart");
  var notesEl = document.getElementById("explore-notes");
  var tableEl = document.getElementById("explore-table");
  var tableBox = document.getElementById("explore-table-box");
  var csvEl = document.getElementById("explore-csv");
  var linkEl = document.getElementById("explore-link");
  var captionEl = document.getElementById("explore-caption");
  var diffForm = document.getElementById("diff-controls");

  var GROUPS = ["point", "range", "write", "other"];
  var VIEWS = ["bars", "heatmap", "ladder", "table"];
  var TABLE_MAX = 400; // rows shown in the page's table; the CSV has them all
  // A cost to 3 significant digits, in the tooltip and the table alike (0.00123 ms, 1,230 cycles):
  // four decimals gave 0.0000 to a tiny cost and 12345.6789 to a large one.
  var COST_FORMAT = ",.3r";
  var EMBED = {
    ast: true, renderer: "svg", defaultStyle: false,
    tooltip: { disableDefaultStyle: true },
    actions: { export: true, source: false, compiled: false, editor: false },
    downloadFileName: "papercuts-explore", scaleFactor: { png: 2, svg: 1 }
  };

  // server -> Promise of its data (with lookup maps), of its cost data. Maps, not objects: a server's
  // id is a contributor's, and "constructor" or "toString" (valid ids) found an object's inherited
  // member there (loadServer(...).then is not a function: nothing drawn, no word why).
  var cache = new Map();
  var costCache = new Map();
  var drawing = 0;
  var csvUrl = null;
  var view = null;
  var shape = null;      // the drawn spec without its data: what a redraw can reuse
  var shown = null;      // what the view shows: {s, d, rows, table drawn?}

  /* ---------- data ---------- */

  function fetchJSON(url) {
    return fetch(url, { credentials: "same-origin" }).then(function (r) {
      if (!r.ok) {
        throw new Error(url + ": HTTP " + r.status);
      }
      return r.json();
    });
  }

  function serverOption(id) {
    var sel = form.elements.server;
    for (var i = 0; i < sel.options.length; i++) {
      if (sel.options[i].value === id) {
        return sel.options[i];
      }
    }
    return null;
  }

  function key(c, t, test, v) {
    return c + "|" + t + "|" + test + "|" + v;
  }

  function expand(column) {
    // A column written as runs (render/explore.py runs): value, count, value, count, ...
    if (Array.isArray(column)) {
      return column;
    }
    var out = [], r = column.runs;
    for (var i = 0; i < r.length; i += 2) {
      for (var k = 0; k < r[i + 1]; k++) {
        out.push(r[i]);
      }
    }
    return out;
  }

  function prepare(d) {
    Object.keys(d.qps).forEach(function (name) { d.qps[name] = expand(d.qps[name]); });
    // Lookups built once per server: value by campaign, threads, test and variant.
    d.qpsAt = new Map();
    var q = d.qps;
    for (var i = 0; i < q.qps.length; i++) {
      d.qpsAt.set(key(q.campaign[i], q.threads[i], q.test[i], q.variant[i]), i);
    }
    var p = d.published;
    d.pubAt = new Map();
    for (var j = 0; j < p.rqps.length; j++) {
      d.pubAt.set(key(p.campaign[j], p.threads[j], p.test[j], p.base[j] + ">" + p.variant[j]), j);
    }
    d.noiseAt = new Map();
    for (var m = 0; m < d.noise.sigma.length; m++) {
      d.noiseAt.set(d.noise.campaign[m] + "|" + d.noise.threads[m], d.noise.sigma[m]);
    }
    d.variantAt = new Map(d.variants.map(function (v, k) { return [v.id, k]; }));
    d.campaignAt = new Map(d.campaigns.map(function (c, k) { return [c.id, k]; }));
    // Per campaign: its variants, thread counts and (published) bases.
    d.campaigns.forEach(function (c) {
      c.variantSet = new Set();
      c.threadSet = new Set();
      c.pubBases = new Set();
    });
    for (var a = 0; a < q.qps.length; a++) {
      d.campaigns[q.campaign[a]].variantSet.add(q.variant[a]);
      d.campaigns[q.campaign[a]].threadSet.add(q.threads[a]);
    }
    d.pubPairs = new Set();  // campaign|base|variant of every published ratio
    for (var b = 0; b < p.rqps.length; b++) {
      d.pubPairs.add(p.campaign[b] + "|" + p.base[b] + "|" + p.variant[b]);
      var c = d.campaigns[p.campaign[b]];
      c.variantSet.add(p.variant[b]);
      c.variantSet.add(p.base[b]);
      c.threadSet.add(p.threads[b]);
      c.pubBases.add(p.base[b]);
    }
    return d;
  }

  function loadServer(id) {
    if (!cache.has(id)) {
      var opt = serverOption(id);
      cache.set(id, fetchJSON(opt.dataset.url).then(prepare));
    }
    return cache.get(id);
  }

  function loadCosts(id) {
    var opt = serverOption(id);
    if (!opt.dataset.costsUrl) {
      return Promise.resolve(null);
    }
    if (!costCache.has(id)) {
      costCache.set(id, fetchJSON(opt.dataset.costsUrl).then(function (c) {
        c.at = new Map();
        for (var i = 0; i < c.value.length; i++) {
          var v = c.value[i] === "inf" ? Infinity : c.value[i];
          c.value[i] = v;
          c.at.set(c.metric[i] + "|" + key(c.campaign[i], c.threads[i], c.test[i], c.variant[i]), i);
        }
        return c;
      }));
    }
    return costCache.get(id);
  }

  /* ---------- state <-> URL ---------- */

  function list(text) {
    return text ? text.split(",").filter(function (s) { return s !== ""; }) : [];
  }

  function readURL() {
    var u = new URLSearchParams(window.location.search);
    return {
      server: u.get("server"), campaign: u.get("campaign"), dbms: u.get("dbms"),
      threads: u.has("threads") ? list(u.get("threads")) : null, base: u.get("base"),
      variants: u.has("v") ? list(u.get("v")) : null, groups: u.has("groups") ? list(u.get("groups")) : null,
      q: u.get("q") || "", metric: u.get("metric"), view: u.get("view"), a: u.get("a"), b: u.get("b")
    };
  }

  function writeURL(s, push) {
    var u = new URLSearchParams();
    u.set("server", s.server);
    u.set("campaign", s.campaign);
    if (s.dbms) { u.set("dbms", s.dbms); }
    u.set("threads", s.threads.join(","));
    u.set("base", s.base);
    u.set("v", s.variants.join(","));
    if (s.groups.length !== GROUPS.length) { u.set("groups", s.groups.join(",")); }
    if (s.q) { u.set("q", s.q); }
    if (s.metric !== "rqps") { u.set("metric", s.metric); }
    if (s.view !== "bars") { u.set("view", s.view); }
    if (s.a) { u.set("a", s.a); }
    if (s.b) { u.set("b", s.b); }
    var url = window.location.pathname + "?" + u.toString();
    if (url !== window.location.pathname + window.location.search) {
      (push ? history.pushState : history.replaceState).call(history, null, "", url);
    }
    linkEl.href = url;
  }

  function defaultServer() {
    return form.elements.server.dataset.default || form.elements.server.options[0].value;
  }

  // A raw request (from the URL or the form) made valid against the data: every parameter that
  // names nothing known falls back to a stated default and says so in `notes`.
  function settle(raw, d, notes) {
    var s = { server: d.server };
    var c = raw.campaign != null ? d.campaignAt.get(raw.campaign) : undefined;
    if (raw.campaign != null && c === undefined) {
      notes.push("Campaign '" + raw.campaign + "' has no data on " + d.server + "; showing the newest.");
    }
    var dbmsOf = function (v) { return d.variants[v].dbms; };
    if (c === undefined) {
      c = 0;
      if (raw.dbms) {
        for (var i = 0; i < d.campaigns.length; i++) {
          if (Array.from(d.campaigns[i].variantSet).some(function (v) { return dbmsOf(v) === raw.dbms; })) {
            c = i;
            break;
          }
        }
      }
    }
    var camp = d.campaigns[c];
    s.campaign = camp.id;
    s.measured = camp.measured;
    var inCampaign = Array.from(camp.variantSet).sort(function (x, y) { return x - y; });
    var dbmsList = Array.from(new Set(inCampaign.map(dbmsOf)));
    s.dbms = "";
    if (raw.dbms) {
      if (dbmsList.indexOf(raw.dbms) >= 0) {
        s.dbms = raw.dbms;
      } else {
        notes.push("DBMS '" + raw.dbms + "' is not in this campaign; showing every DBMS.");
      }
    }
    var shown = inCampaign.filter(function (v) { return !s.dbms || dbmsOf(v) === s.dbms; });

    // Base: any variant of the campaign when QPS was measured; a published base otherwise.
    var bases = camp.measured ? shown : shown.filter(function (v) { return camp.pubBases.has(v); });
    var preferred = camp.bases.filter(function (v) { return bases.indexOf(v) >= 0; });
    var fallback = preferred.length ? preferred[0] : bases[0];
    var base = raw.base != null ? d.variantAt.get(raw.base) : undefined;
    if (raw.base != null && (base === undefined || bases.indexOf(base) < 0)) {
      notes.push((camp.measured ? "Base '" : "This campaign published ratios only; base '") + raw.base +
        "' is not " + (camp.measured ? "in this campaign" : "one of its published bases") +
        "; showing " + d.variants[fallback].id + ".");
      base = undefined;
    }
    s.base = d.variants[base === undefined ? fallback : base].id;
    var baseIdx = d.variantAt.get(s.base);
    s.bases = bases;

    var comparable = shown.filter(function (v) {
      if (v === baseIdx) {
        return false;
      }
      if (camp.measured) {
        return true;
      }
      return d.pubPairs.has(c + "|" + baseIdx + "|" + v);
    });
    s.comparable = comparable;
    var defaultVariants = comparable.filter(function (v) {
      return d.variants[v].dbms === d.variants[baseIdx].dbms && d.variants[v].engine === d.variants[baseIdx].engine;
    });
    if (raw.variants) {
      var picked = [];
      raw.variants.forEach(function (id) {
        var v = d.variantAt.get(id);
        if (v === undefined || comparable.indexOf(v) < 0) {
          notes.push("Variant '" + id + "' is not comparable with the base in this campaign; left out.");
        } else if (picked.indexOf(v) < 0) {
          picked.push(v);
        }
      });
      if (!picked.length && raw.variants.length) {
        notes.push("None of the variants asked for is here; showing the base's DBMS and engine.");
        picked = defaultVariants;
      }
      s.variants = picked.sort(function (x, y) { return x - y; }).map(function (v) { return d.variants[v].id; });
    } else {
      s.variants = defaultVariants.map(function (v) { return d.variants[v].id; });
    }

    var threadsAll = Array.from(camp.threadSet).sort(function (x, y) { return x - y; });
    s.threadsAll = threadsAll;
    var threads = (raw.threads || []).map(Number).filter(function (t, i, arr) {
      var ok = threadsAll.indexOf(t) >= 0;
      if (!ok) {
        notes.push("Thread count '" + raw.threads[i] + "' is not in this campaign; left out.");
      }
      return ok && arr.indexOf(t) === i;
    });
    if (!threads.length) {
      if (raw.threads && raw.threads.length) {
        notes.push("Showing " + threadsAll[0] + " thread(s).");
      }
      threads = [threadsAll[0]];
    }
    s.threads = threads.sort(function (x, y) { return x - y; });

    var groups = raw.groups ? raw.groups.filter(function (g) { return GROUPS.indexOf(g) >= 0; }) : GROUPS.slice();
    if (raw.groups && groups.length !== raw.groups.length) {
      notes.push("Unknown group(s) left out; the groups are " + GROUPS.join(", ") + ".");
    }
    s.groups = groups.length ? groups : GROUPS.slice();
    s.q = raw.q || "";

    var metrics = Array.prototype.map.call(form.elements.metric.options, function (o) { return o.value; });
    s.metric = raw.metric && metrics.indexOf(raw.metric) >= 0 ? raw.metric : "rqps";
    if (raw.metric && s.metric !== raw.metric) {
      notes.push("Metric '" + raw.metric + "' is unknown; showing rQPS.");
    }
    if (!camp.measured && s.metric !== "rqps") {
      notes.push("This campaign published ratios only: no absolute throughput or costs behind them; showing rQPS.");
      s.metric = "rqps";
    }
    s.view = raw.view && VIEWS.indexOf(raw.view) >= 0 ? raw.view : "bars";
    if (raw.view && s.view !== raw.view) {
      notes.push("View '" + raw.view + "' is unknown; showing bars.");
    }
    s.a = raw.a && d.variantAt.has(raw.a) ? raw.a : "";
    s.b = raw.b && d.variantAt.has(raw.b) ? raw.b : "";
    if ((raw.a && !s.a) || (raw.b && !s.b)) {
      notes.push("A variant to diff is not on this server; pick it again below.");
    }
    return s;
  }

  /* ---------- numbers ---------- */

  function testShown(t, s) {
    if (s.groups.indexOf(t.group) < 0) {
      return false;
    }
    if (!s.q) {
      return true;
    }
    if (s.q.length > 1 && s.q.charAt(0) === '"' && s.q.charAt(s.q.length - 1) === '"') {
      return t.label === s.q.slice(1, -1);  // "a label" in quotes: that microbenchmark only
    }
    var words = s.q.toLowerCase().split(/\s+/).filter(Boolean);
    var text = t.label.toLowerCase();
    return words.every(function (w) { return text.indexOf(w) >= 0; });
  }

  // The rows of the current view: one per microbenchmark, thread count and variant.
  function compute(s, d, costs) {
    var c = d.campaignAt.get(s.campaign);
    var base = d.variantAt.get(s.base);
    var variants = s.variants.map(function (id) { return d.variantAt.get(id); });
    // The base is drawn beside the variants where it means something: its absolute values, and
    // its 1.0 at the start of a ladder of measured rQPS.
    var withBase = s.metric !== "rqps" || (s.view === "ladder" && s.measured) ? [base].concat(variants) : variants;
    var multi = s.threads.length > 1;
    var rows = [];
    var missing = 0;
    var metricIdx = costs ? costs.metrics.indexOf(s.metric) : -1;
    d.tests.forEach(function (t, ti) {
      if (!testShown(t, s)) {
        return;
      }
      s.threads.forEach(function (th) {
        var band = noiseBand(s, d, c, th);
        var baseValue = valueOf(s, d, costs, metricIdx, c, th, ti, base, base);
        withBase.forEach(function (v, order) {
          var value = valueOf(s, d, costs, metricIdx, c, th, ti, v, base);
          if (value == null) {
            missing += 1;
            return;
          }
          var row = {
            microbenchmark: multi ? t.label + " @ " + th + (th === 1 ? " thread" : " threads") : t.label,
            test: t.label, group: t.group, threads: th, variant: d.variants[v].id,
            version: d.variants[v].version, base_variant: s.base, order: ti * 1000 + th, vorder: order,
            noise: band.value, noise_method: band.method
          };
          if (s.metric === "rqps") {
            if (s.measured) {
              row.qps = value;
              row.base_qps = baseValue;
              row.unit = t.unit;
              row.rqps = baseValue == null ? null : value / baseValue;
            } else {
              row.rqps = value;
            }
            row.value = row.rqps;
          } else {
            row.value = value;
            row.base_value = baseValue;
            row.unit = unitOf(s, t, costs, metricIdx);
            row.ratio = baseValue > 0 && value > 0 && isFinite(value) && isFinite(baseValue) ? value / baseValue : null;
          }
          if (row.value == null) {
            missing += 1;
            return;
          }
          rows.push(row);
        });
      });
    });
    return { rows: rows, missing: missing };
  }

  // The ± band within which a ratio is noise: for rQPS, 2·√2·σ of the campaign's ladders at
  // this thread count (as every chart of the site mutes it), else the stated threshold.
  function noiseBand(s, d, c, th) {
    var sigma = s.metric === "rqps" ? d.noiseAt.get(c + "|" + th) : undefined;
    return sigma ? { value: Math.expm1(d.colour.noise_spreads * sigma), method: "measured" }
      : { value: d.colour.noise, method: "stated" };
  }

  function withinNoise(r, field) {
    var v = r[field];
    return v != null && v > 0 && Math.abs(Math.log(v)) < Math.log1p(r.noise);
  }

  // The unit of a row's absolute values: its microbenchmark's throughput unit (scan counts
  // krows/s, not queries), or the cost's. Contributed text: a data value only, never a title.
  function unitOf(s, t, costs, metricIdx) {
    return s.metric === "rqps" || s.metric === "qps" ? t.unit : costs.units[metricIdx];
  }

  function valueOf(s, d, costs, metricIdx, c, th, ti, v, base) {
    if (s.metric === "rqps" && !s.measured) {
      var j = d.pubAt.get(key(c, th, ti, base + ">" + v));
      return j === undefined ? null : d.published.rqps[j];
    }
    if (s.metric === "rqps" || s.metric === "qps") {
      var i = d.qpsAt.get(key(c, th, ti, v));
      return i === undefined ? null : d.qps.qps[i];
    }
    if (!costs || metricIdx < 0) {
      return null;
    }
    var k = costs.at.get(metricIdx + "|" + key(c, th, ti, v));
    return k === undefined ? null : costs.value[k];
  }

  /* ---------- views ---------- */

  function isRatio(s) {
    return s.metric === "rqps" || s.metric !== "qps";
  }

  function ratioField(s) {
    return s.metric === "rqps" ? "rqps" : "ratio";
  }

  // The menu's option of the metric s names: not the one selected, which is the last view's until
  // showControls (a server without costs said "No rQPS ... ; showing rQPS" of a cost asked for).
  function metricOption(s) {
    return Array.prototype.find.call(form.elements.metric.options, function (o) { return o.value === s.metric; });
  }

  // A cost ratio above 1 is a loss (more CPU per query), except where more is better (IPC).
  function lowerIsBetter(s) {
    var opt = metricOption(s);
    return s.metric !== "rqps" && s.metric !== "qps" && !!opt && opt.dataset.lowerIsBetter === "true";
  }

  function metricLabel(s) {
    if (s.metric === "qps") {
      return "absolute throughput";  // not QPS: each microbenchmark's own unit
    }
    var opt = metricOption(s);
    return opt ? opt.textContent : s.metric;
  }

  // The axis (or legend) title of absolute throughputs: their unit when one, else not one for
  // all. Text to Vega, never an expression (a guide's title; the channel's stays ours).
  function throughputTitle(rows) {
    var units = Array.from(new Set(rows.map(function (r) { return r.unit; })));
    return units.length === 1 ? "throughput (" + units[0] + ")" : "throughput (unit per microbenchmark)";
  }

  function colour(d, field, lowerIsBetter) {
    var c = d.colour;
    return {
      condition: { test: "datum['" + field + "'] > 0 && abs(log(datum['" + field + "'])) < log(1 + datum['noise'])",
                   value: c.muted },
      field: field, type: "quantitative", title: field === "rqps" ? "rQPS" : "value / base value",
      scale: { type: "log", scheme: "redblue", domain: c.domain, domainMid: 1, clamp: true,
               reverse: !!lowerIsBetter },
      legend: { values: [0.5, 0.71, 1, 1.41, 2], format: ".2~f" }
    };
  }

  function tooltip(s) {
    var t = [{ field: "microbenchmark", title: "microbenchmark" }, { field: "variant", title: "variant" }];
    if (s.metric === "rqps") {
      t.push({ field: "rqps", title: "rQPS", format: ".2f" });  // as the site's charts and tables
      if (s.measured) {
        t.push({ field: "qps", title: "throughput", format: ",.2f" },
               { field: "base_qps", title: "base throughput", format: ",.2f" }, { field: "unit", title: "unit" });
      }
    } else if (s.metric === "qps") {
      t.push({ field: "value", title: "throughput", format: ",.2f" },
             { field: "base_value", title: "base throughput", format: ",.2f" }, { field: "unit", title: "unit" });
    } else {
      t.push({ field: "value", title: "value", format: COST_FORMAT }, { field: "base_value", title: "base value", format: COST_FORMAT },
             { field: "unit", title: "unit" }, { field: "ratio", title: "/ base", format: ".2f" });
    }
    return t;
  }

  // Each variant in the colour it has on every page of the site (render/colours.py assigns it),
  // unless another variant shown has that colour too: a campaign of more variants than the palette
  // has colours repeats some (ax162-s's 2026-04-03 campaign gave 10.2.44 and 11.8.6 one green, 10.3.39
  // and 12.3.1 one purple, in a chart of 10 MariaDB versions), and two bars of one colour cannot be
  // told apart. The later of two then takes a palette colour no variant shown has, while one is left.
  function variantColours(d, rows) {
    var seen = new Map();
    rows.forEach(function (r) { if (!seen.has(r.variant)) seen.set(r.variant, r.vorder); });
    var domain = Array.from(seen.keys()).sort(function (a, b) { return seen.get(a) - seen.get(b); });
    var own = domain.map(function (id) { return d.variants[d.variantAt.get(id)].colour || "#767676"; });
    var taken = new Set(own.map(function (c) { return c.toLowerCase(); }));
    var spare = (d.colour.palette || []).filter(function (c) { return !taken.has(c.toLowerCase()); });
    var used = new Set();
    var range = own.map(function (c) {
      var key = c.toLowerCase();
      if (used.has(key) && spare.length) { c = spare.shift(); key = c.toLowerCase(); }
      used.add(key);
      return c;
    });
    return { domain: domain, range: range };
  }

  function barsSpec(s, d, rows) {
    var ratio = isRatio(s);
    var field = ratio ? ratioField(s) : "value";
    var x = { field: field, type: "quantitative", scale: ratio ? { type: "log", nice: false } : { zero: true },
              title: ratio ? (s.metric === "rqps" ? "rQPS (QPS / base QPS)" : "value / base value") : "throughput" };
    if (!ratio) {
      x.axis = { title: throughputTitle(rows) };
    }
    var bar = {
      mark: { type: "bar" },
      encoding: {
        y: { field: "microbenchmark", type: "nominal", title: null, sort: { field: "order" } },
        yOffset: { field: "variant", type: "nominal", sort: { field: "vorder" } },
        x: x,
        color: { field: "variant", type: "nominal", title: "variant", sort: { field: "vorder" },
                 scale: variantColours(d, rows) },
        opacity: ratio ? { condition: { test: "datum['" + field + "'] > 0 && abs(log(datum['" + field + "'])) < log(1 + datum['noise'])",
                                        value: 0.3 }, value: 1 } : { value: 1 },
        tooltip: tooltip(s)
      }
    };
    if (ratio) {
      bar.encoding.x2 = { datum: 1 };
    }
    var layers = [bar];
    if (ratio) {
      layers.push({ mark: { type: "rule", color: "#222", strokeDash: [4, 3] }, encoding: { x: { datum: 1 } } });
    }
    return {
      $schema: "https://vega.github.io/schema/vega-lite/v6.json",
      data: { name: "table", values: ratio ? rows.filter(function (r) { return r[field] != null && r[field] > 0; }) : rows },
      facet: { row: { field: "group", type: "nominal", sort: GROUPS, title: null,
                      header: { labelAngle: 0, labelAlign: "left", labelFontWeight: 600 } } },
      // yOffset shared: resolved per panel, it put every microbenchmark of a panel in one band
      resolve: { scale: { y: "independent" } },
      // A bar's own height (the offset's step): 3-12 px, about 48 px a microbenchmark
      spec: { width: fitWidth(520), height: { step: Math.max(3, Math.min(12, Math.round(48 / (s.variants.length + (ratio ? 0 : 1))))), for: "offset" },
              layer: layers }
    };
  }

  function heatmapSpec(s, d, rows) {
    var ratio = isRatio(s);
    var field = ratio ? ratioField(s) : "value";
    var x = { field: "variant", type: "nominal", sort: { field: "vorder" }, title: null,
              axis: { labelAngle: -40, orient: "top" } };
    var y = { field: "microbenchmark", type: "nominal", sort: { field: "order" }, title: null };
    var cell = ratio ? colour(d, field, lowerIsBetter(s))
      : { field: "value", type: "quantitative", title: "throughput", scale: { type: "log", scheme: "blues" },
          legend: { title: throughputTitle(rows) } };
    var textColour = ratio
      ? { condition: { test: "datum['" + field + "'] < " + d.colour.white_text_below + " || datum['" + field + "'] > " +
                             d.colour.white_text_above, value: "#ffffff" }, value: "#111111" }
      : { value: "#111111" };
    return {
      $schema: "https://vega.github.io/schema/vega-lite/v6.json",
      data: { name: "table", values: rows.filter(function (r) { return r[field] != null; }) },
      width: { step: 64 }, height: { step: 18 },
      layer: [
        { mark: { type: "rect" }, encoding: { x: x, y: y, color: cell, tooltip: tooltip(s) } },
        { mark: { type: "text", fontSize: 10 },
          encoding: { x: x, y: y, color: textColour, tooltip: tooltip(s),
                      text: { field: field, type: "quantitative", format: ratio ? ".2f" : ".3~s" } } }
      ]
    };
  }

  // Along the builds in version order: the ratio to the base per microbenchmark (thin lines,
  // coloured by group) and the group median (thick); detected change points of the campaign's
  // ladder are marked on the build after the step when both its builds are shown side by side.
  function ladderSpec(s, d, rows, changes) {
    var ratio = isRatio(s);
    var field = ratio ? ratioField(s) : "value";
    var values = rows.filter(function (r) { return r[field] != null && r[field] > 0; });
    var x = { field: "variant", type: "ordinal", sort: { field: "vorder" }, title: null, axis: { labelAngle: -40 } };
    var y = { field: field, type: "quantitative", scale: { type: "log", nice: false, padding: 8 },
              title: ratio ? (s.metric === "rqps" ? "rQPS (QPS / base QPS)" : "value / base value") : "throughput" };
    if (!ratio) {
      y.axis = { title: throughputTitle(values) };
    }
    var layers = [
      { mark: { type: "line", strokeWidth: 1, opacity: 0.45, point: { size: 12 } },
        encoding: { x: x, y: y, detail: { field: "microbenchmark" },
                    color: { field: "group", type: "nominal", sort: GROUPS, title: "group" },
                    tooltip: tooltip(s) } },
      { transform: [{ aggregate: [{ op: "median", field: field, as: "median" }, { op: "min", field: "vorder", as: "vorder" }],
                      groupby: ["group", "variant"] }],
        mark: { type: "line", strokeWidth: 3 },
        encoding: { x: x, y: { field: "median", type: "quantitative" },
                    color: { field: "group", type: "nominal", sort: GROUPS, title: "group" },
                    tooltip: [{ field: "group" }, { field: "variant" }, { field: "median", format: ".2f", title: "group median" }] } }
    ];
    if (ratio) {
      layers.push({ mark: { type: "rule", color: "#222", strokeDash: [4, 3] }, encoding: { y: { datum: 1 } } });
    }
    if (changes.length) {
      layers.push({
        data: { name: "changes", values: changes },
        mark: { type: "point", shape: "triangle-down", size: 110, filled: true, stroke: "#111" },
        encoding: { x: { field: "variant", type: "ordinal", sort: { field: "vorder" } },
                    y: { field: "at", type: "quantitative" },
                    fill: { field: "direction", type: "nominal", title: "change point",
                             scale: { domain: ["regression", "improvement"], range: ["#b2182b", "#2166ac"] } },
                    tooltip: [{ field: "series", title: "series" }, { field: "between", title: "between" },
                              { field: "change", title: "change", format: "+.1%" }, { field: "pvalue", title: "p", format: ".2g" }] }
      });
    }
    return {
      $schema: "https://vega.github.io/schema/vega-lite/v6.json",
      data: { name: "table", values: values },
      width: fitWidth(640), height: 320, layer: layers
    };
  }

  // The ladder's change points between two builds that are both shown, next to each other.
  function changesShown(s, d, rows) {
    if (s.metric !== "rqps" && s.metric !== "qps") {
      return [];
    }
    var c = d.campaignAt.get(s.campaign);
    var order = [d.variantAt.get(s.base)].concat(s.variants.map(function (id) { return d.variantAt.get(id); }));
    order = order.slice().sort(function (x, y) { return x - y; });
    var field = s.metric === "rqps" ? "rqps" : "value";
    var at = new Map();
    rows.forEach(function (r) {
      at.set(r.test + "|" + r.threads + "|" + r.variant, r);
    });
    var ch = d.changes;
    var out = [];
    for (var i = 0; i < ch.change.length; i++) {
      if (ch.campaign[i] !== c || s.threads.indexOf(ch.threads[i]) < 0 || ch.kind[i] !== "series") {
        continue;
      }
      var pos = order.indexOf(ch.after[i]);
      if (pos <= 0 || order[pos - 1] !== ch.before[i] || ch.test[i] == null) {
        continue;
      }
      var label = d.tests[ch.test[i]].label;
      var row = at.get(label + "|" + ch.threads[i] + "|" + d.variants[ch.after[i]].id);
      if (!row || row[field] == null) {
        continue;
      }
      // a change whose place is not sure also names its span: the builds it lies between with
      // probability span_level, by version (a ladder has one build a version)
      var wide = ch.span_before[i] !== ch.before[i] || ch.span_after[i] !== ch.after[i];
      var ends = [d.variants[ch.span_before[i]].version, d.variants[ch.span_after[i]].version];
      out.push({ variant: row.variant, vorder: row.vorder, at: row[field], series: row.microbenchmark,
                 between: d.variants[ch.before[i]].version + " → " + d.variants[ch.after[i]].version +
                   (wide ? " (" + Math.round(100 * ch.span_level) + "% within " + ends[0] + " → " + ends[1] + ")" : ""),
                 change: ch.change[i], pvalue: ch.pvalue[i],
                 direction: ch.change[i] < 0 ? "regression" : "improvement" });
    }
    return out;
  }

  // A chart wider than its box scrolls inside it, and says so above it, as the site's charts do
  // (charts.js markWide, site.css): on a phone the first view's bars drew 562 px in a 350 px box,
  // its legend wholly past the right edge, with no sign that anything was there.
  var watched = false;
  function markWide() {
    var check = function () {
      if (chartEl.scrollWidth > chartEl.clientWidth + 1) { chartEl.dataset.wide = "true"; } else { delete chartEl.dataset.wide; }
    };
    check();
    if (!watched && "ResizeObserver" in window) {
      watched = true;
      new ResizeObserver(check).observe(chartEl);
    }
  }

  function fitWidth(preferred) {
    var available = (chartEl.clientWidth || window.innerWidth) - 240;
    return Math.max(140, Math.min(preferred, available));
  }

  /* ---------- table and CSV ---------- */

  // The CSV's columns; the table's are the same but for a cost's unit, which its headers say.
  function columns(s) {
    var cols = ["microbenchmark", "group", "threads", "variant", "base_variant"];
    if (s.metric === "rqps") {
      return cols.concat(s.measured ? ["qps", "base_qps", "unit", "rqps"] : ["rqps"]);
    }
    return cols.concat(s.metric === "qps" ? ["value", "unit"] : ["value", "base_value", "unit", "ratio"]);
  }

  function isCost(s) {
    return s.metric !== "rqps" && s.metric !== "qps";
  }

  function tableColumns(s) {
    return columns(s).filter(function (c) { return !(isCost(s) && c === "unit"); });
  }

  // A table column's header: a cost's values with their unit (one per metric), throughputs by
  // name (their unit has a column: one per microbenchmark).
  function heading(s, col, rows) {
    var unit = isCost(s) && rows.length ? " (" + rows[0].unit + ")" : "";
    var names = { qps: "throughput", base_qps: "base throughput", base_variant: "base variant",
                  value: s.metric === "qps" ? "throughput" : "value" + unit, base_value: "base value" + unit,
                  ratio: "/ base" };
    return names[col] || col;
  }

  // A cost to 3 significant digits as the pages' tables write it (render/tables.py significant):
  // the double's exact value rounded, a tie away from zero, by toFixed and toPrecision, as a
  // chart's d3-format does. toLocaleString rounded the shortest decimal that reads back as the
  // double instead: 0.001365 (a vmstat cpu/o as printed) was 0.00137 here and 0.00136 on its
  // campaign page and in its chart's tooltip.
  function significant(v) {
    if (v === 0) {
      return "0";
    }
    var places = 2 - Math.floor(Math.log10(Math.abs(v)));
    return grouped(places >= 0 ? v.toFixed(places) : Number(v.toPrecision(3)).toFixed(0));
  }

  // Thousands separated as a chart's d3-format ',' and Python's ',' separate them.
  function grouped(text) {
    var parts = text.split(".");
    parts[0] = parts[0].replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    return parts.join(".");
  }

  function fmt(v, col, s) {
    if (v == null) {
      return "";
    }
    if (typeof v !== "number") {
      return String(v);
    }
    if (col === "rqps" || col === "ratio") {
      return v.toFixed(2);  // as every page's table and chart prints a ratio (render/tables.py fixed)
    }
    if (col === "threads") {
      return String(v);
    }
    if (!isFinite(v)) {
      return "inf";
    }
    if (isCost(s)) {
      return significant(v);
    }
    // a throughput as a chart's tooltip prints it (',.2f'): 3.875 krows/s read 3.875 here, 3.88 there
    return grouped(v.toFixed(2));
  }

  function ratioClass(v, band) {
    if (v == null || !isFinite(v) || v <= 0) {
      return "";
    }
    if (Math.abs(Math.log(v)) < Math.log1p(band)) {
      return "eq1";
    }
    var strength = Math.abs(Math.log2(v));
    return (v < 1 ? "lt1" : "gt1") + " " + (strength < 0.15 ? "s1" : strength < 0.5 ? "s2" : "s3");
  }

  function drawTable(s, d, rows) {
    var cols = tableColumns(s);
    tableEl.textContent = "";
    var head = tableEl.createTHead().insertRow();
    cols.forEach(function (c) {
      var th = document.createElement("th");
      th.textContent = heading(s, c, rows);
      head.appendChild(th);
    });
    var body = tableEl.createTBody();
    rows.slice(0, TABLE_MAX).forEach(function (r) {
      var tr = body.insertRow();
      cols.forEach(function (c) {
        var td = tr.insertCell();
        td.textContent = fmt(r[c], c, s);
        if (typeof r[c] === "number") {
          td.className = "num";
        }
        if (c === "rqps" || c === "ratio") {
          var v = c === "ratio" && lowerIsBetter(s) && r[c] != null ? 1 / r[c] : r[c];
          td.className += " " + ratioClass(v, r.noise);
        }
      });
    });
    if (rows.length > TABLE_MAX) {
      var cap = tableEl.createCaption();
      cap.textContent = "The first " + TABLE_MAX + " of " + rows.length + " rows; the CSV has them all.";
    }
  }

  function csvCell(v) {
    var text = v == null ? "" : typeof v === "number" ? (isFinite(v) ? String(v) : "inf") : String(v);
    return /[",\n\r]/.test(text) ? '"' + text.replace(/"/g, '""') + '"' : text;
  }

  function setCsv(s, rows) {
    var cols = ["campaign", "server", "metric"].concat(columns(s));
    var lines = [cols.join(",")];
    rows.forEach(function (r) {
      lines.push(cols.map(function (c) {
        return csvCell(c === "campaign" ? s.campaign : c === "server" ? s.server : c === "metric" ? s.metric : r[c]);
      }).join(","));
    });
    if (csvUrl) {
      URL.revokeObjectURL(csvUrl);
    }
    csvUrl = URL.createObjectURL(new Blob([lines.join("\n") + "\n"], { type: "text/csv" }));
    csvEl.href = csvUrl;
    csvEl.download = "papercuts-" + s.server + "-" + s.campaign + "-" + s.metric + ".csv";
  }

  function showTable() {
    if (shown && !shown.table) {
      drawTable(shown.s, shown.d, shown.rows);
      shown.table = true;
    }
  }

  /* ---------- controls ---------- */

  // Controls are rebuilt only when their choices change (a new server, campaign or base); a redraw
  // otherwise just sets their values.
  function signature(items) {
    return items.map(function (it) { return it.value + "\u0001" + it.text; }).join("\u0002");
  }

  function fillSelect(sel, items, value) {
    var sig = signature(items);
    if (sel.dataset.sig === sig) {
      sel.value = value;
      return;
    }
    sel.dataset.sig = sig;
    sel.textContent = "";
    items.forEach(function (it) {
      var o = document.createElement("option");
      o.value = it.value;
      o.textContent = it.text;
      sel.appendChild(o);
    });
    sel.value = value;
  }

  function fillChecks(name, items, checked) {
    var box = form.querySelector('fieldset[data-name="' + name + '"]');
    var sig = signature(items);
    if (box.dataset.sig === sig) {
      Array.prototype.forEach.call(box.querySelectorAll("input"), function (i) {
        i.checked = checked.indexOf(i.value) >= 0;
      });
      return;
    }
    box.dataset.sig = sig;
    Array.prototype.slice.call(box.querySelectorAll("label")).forEach(function (l) { l.remove(); });
    items.forEach(function (it) {
      var l = document.createElement("label");
      var i = document.createElement("input");
      i.type = "checkbox";
      i.name = name;
      i.value = it.value;
      i.checked = checked.indexOf(it.value) >= 0;
      l.appendChild(i);
      l.appendChild(document.createTextNode(" " + it.text));
      box.appendChild(l);
    });
  }

  function variantText(d, v) {
    var x = d.variants[v];
    return x.dbms + " " + x.version + " (" + x.id + ")";
  }

  function showControls(s, d) {
    form.elements.server.value = s.server;
    var camp = d.campaigns[d.campaignAt.get(s.campaign)];
    fillSelect(form.elements.campaign, d.campaigns.map(function (c) {
      return { value: c.id, text: c.date + " · " + c.title + (c.measured ? "" : " (published ratios)") };
    }), s.campaign);
    var dbmsSel = form.elements.dbms;
    var dbmsList = Array.from(new Set(Array.from(camp.variantSet).map(function (v) { return d.variants[v].dbms; }))).sort();
    fillSelect(dbmsSel, [{ value: "", text: "every DBMS" }].concat(dbmsList.map(function (n) { return { value: n, text: n }; })), s.dbms);
    fillSelect(form.elements.base, s.bases.map(function (v) { return { value: d.variants[v].id, text: variantText(d, v) }; }), s.base);
    fillChecks("threads", s.threadsAll.map(function (t) { return { value: String(t), text: String(t) }; }),
               s.threads.map(String));
    fillChecks("groups", GROUPS.map(function (g) { return { value: g, text: g }; }), s.groups);
    fillChecks("variants", s.comparable.map(function (v) { return { value: d.variants[v].id, text: variantText(d, v) }; }),
               s.variants);
    form.elements.q.value = s.q;
    form.elements.metric.value = s.metric;
    form.elements.view.value = s.view;
    var all = d.variants.map(function (v, i) { return { value: v.id, text: variantText(d, i) }; });
    fillSelect(diffForm.elements.a, [{ value: "", text: "(pick a variant)" }].concat(all), s.a);
    fillSelect(diffForm.elements.b, [{ value: "", text: "(pick a variant)" }].concat(all), s.b);
  }

  function fromForm() {
    var checked = function (name) {
      return Array.prototype.filter.call(form.querySelectorAll('input[name="' + name + '"]'), function (i) {
        return i.checked;
      }).map(function (i) { return i.value; });
    };
    return {
      server: form.elements.server.value, campaign: form.elements.campaign.value, dbms: form.elements.dbms.value,
      threads: checked("threads"), base: form.elements.base.value, variants: checked("variants"),
      groups: checked("groups"), q: form.elements.q.value.trim(), metric: form.elements.metric.value,
      view: form.elements.view.value, a: diffForm.elements.a.value, b: diffForm.elements.b.value
    };
  }

  /* ---------- config diff ---------- */

  function settingsMap(text) {
    var m = new Map();
    (text || "").split(/[;\n]/).forEach(function (part) {
      var eq = part.indexOf("=");
      if (eq > 0) {
        m.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
      }
    });
    return m;
  }

  function diffRows(d, a, b) {
    var va = d.variants[a];
    var vb = d.variants[b];
    var rows = [];
    ["dbms", "engine", "version", "build", "compiler", "flags", "git_hash", "config", "build_notes", "config_notes"]
      .forEach(function (f) {
        rows.push([f.replace("_", " "), va[f] || "", vb[f] || ""]);
      });
    var sa = settingsMap(va.settings);
    var sb = settingsMap(vb.settings);
    Array.from(new Set(Array.from(sa.keys()).concat(Array.from(sb.keys())))).sort().forEach(function (k) {
      rows.push(["setting " + k, sa.has(k) ? sa.get(k) : "(not set)", sb.has(k) ? sb.get(k) : "(not set)"]);
    });
    return rows;
  }

  function mycnfOf(d, v, campaign) {
    var c = d.campaignAt.get(campaign);
    var found = null;
    d.mycnf.forEach(function (m) {
      if (m.variant === v && (found === null || m.campaign === c)) {
        found = m;
      }
    });
    return found;
  }

  // Lines only in A ("-") and only in B ("+"), in file order: a longest-common-subsequence diff.
  function lineDiff(a, b) {
    var x = a.split("\n");
    var y = b.split("\n");
    var n = x.length;
    var m = y.length;
    if (n * m > 4e6) {
      return null;
    }
    var L = [];
    for (var i = 0; i <= n; i++) {
      L.push(new Uint16Array(m + 1));
    }
    for (var p = n - 1; p >= 0; p--) {
      for (var q = m - 1; q >= 0; q--) {
        L[p][q] = x[p] === y[q] ? L[p + 1][q + 1] + 1 : Math.max(L[p + 1][q], L[p][q + 1]);
      }
    }
    var out = [];
    var s = 0;
    var t = 0;
    while (s < n || t < m) {
      if (s < n && t < m && x[s] === y[t]) {
        s++;
        t++;
      } else if (t < m && (s === n || L[s][t + 1] >= L[s + 1][t])) {
        out.push("+ " + y[t++]);
      } else {
        out.push("- " + x[s++]);
      }
    }
    return out;
  }

  function drawDiff(s, d) {
    var table = document.getElementById("diff-table");
    var cnf = document.getElementById("diff-mycnf");
    table.textContent = "";
    cnf.textContent = "";
    if (!s.a || !s.b) {
      return;
    }
    var a = d.variantAt.get(s.a);
    var b = d.variantAt.get(s.b);
    var head = table.createTHead().insertRow();
    ["", s.a, s.b].forEach(function (t) {
      var th = document.createElement("th");
      th.textContent = t;
      head.appendChild(th);
    });
    var body = table.createTBody();
    diffRows(d, a, b).forEach(function (r) {
      var tr = body.insertRow();
      tr.className = r[1] === r[2] ? "same" : "differs";
      r.forEach(function (text) {
        tr.insertCell().textContent = text;
      });
    });
    var ma = mycnfOf(d, a, s.campaign);
    var mb = mycnfOf(d, b, s.campaign);
    var p = document.createElement("p");
    if (!ma || !mb) {
      p.textContent = "my.cnf: " + (!ma && !mb ? "neither variant's" : (!ma ? s.a : s.b) + "'s") +
        " campaign ships no my.cnf file named for its config on this server.";
      cnf.appendChild(p);
      return;
    }
    p.appendChild(document.createTextNode("my.cnf: "));
    [ma, mb].forEach(function (m, i) {
      var link = document.createElement("a");
      link.href = m.url;
      link.textContent = m.name;
      p.appendChild(link);
      if (i === 0) {
        p.appendChild(document.createTextNode(" (−) against "));
      }
    });
    p.appendChild(document.createTextNode(" (+)"));
    cnf.appendChild(p);
    var pre = document.createElement("pre");
    pre.className = "mycnf-diff";
    var lines = ma.text != null && mb.text != null ? lineDiff(ma.text, mb.text) : null;
    pre.textContent = lines === null ? "(too large to compare here; follow the links)"
      : lines.length ? lines.join("\n") : "(the two files are identical)";
    cnf.appendChild(pre);
  }

  /* ---------- drawing ---------- */

  function caption(s, d, rows) {
    var camp = d.campaigns[d.campaignAt.get(s.campaign)];
    captionEl.textContent = "";
    var strong = document.createElement("strong");
    strong.textContent = metricLabel(s) + " on " + s.server + ", " + s.threads.join(", ") + " thread(s)";
    captionEl.appendChild(strong);
    captionEl.appendChild(document.createTextNode(" against " + s.base + " · campaign "));
    var a = document.createElement("a");
    a.href = camp.url;
    a.textContent = camp.title;
    captionEl.appendChild(a);
    captionEl.appendChild(document.createTextNode((camp.measured ? "" : " · published ratios, as printed") +
                                                  " · " + noiseNote(s, rows)));
  }

  // What the grey cells (faint bars) are, and how many values they hide, as the site's charts say it.
  function noiseNote(s, rows) {
    var field = s.metric === "rqps" ? "rqps" : "ratio";
    if (s.metric === "qps") {
      return "absolute values: no noise band";
    }
    var bands = Array.from(new Set(rows.map(function (r) { return r.noise; }))).sort(function (a, b) { return a - b; });
    var methods = new Set(rows.map(function (r) { return r.noise_method; }));
    var muted = rows.filter(function (r) { return withinNoise(r, field); }).length;
    var pct = function (x) { return "±" + (100 * x).toFixed(1) + "%"; };
    var span = bands.length > 1 ? pct(bands[0]) + " to " + pct(bands[bands.length - 1]) : bands.length ? pct(bands[0]) : "";
    var how = methods.size === 1 ? (methods.has("measured") ? "measured on this campaign's version ladders"
      : "a stated threshold") : "measured where a ladder exists, else stated";
    return "grey: " + muted + " of " + rows.length + " within noise (" + span + ", " + how + ")";
  }

  // Fallbacks (a parameter that named nothing known) and plain facts about what is shown.
  function note(fallbacks, infos) {
    notesEl.textContent = "";
    fallbacks.concat(infos || []).forEach(function (t, i) {
      var p = document.createElement("p");
      p.className = i < fallbacks.length ? "note fallback" : "note info";
      p.textContent = t;
      notesEl.appendChild(p);
    });
  }

  function render(s, d, costs, notes, started) {
    var result = compute(s, d, costs);
    var rows = result.rows;
    var infos = [];
    if (result.missing) {
      infos.push(result.missing + " value(s) not measured for this choice are left out.");
    }
    if (!rows.length) {
      infos.push("Nothing to show: pick at least one variant, a group and a microbenchmark that match.");
    }
    note(notes, infos);
    caption(s, d, rows);
    // The table and the CSV are made when they are looked at (the box opened, the link
    // followed): a redraw does not pay for them.
    shown = { s: s, d: d, rows: rows, table: false };
    tableBox.open = s.view === "table";
    if (tableBox.open) {
      showTable();
    }
    csvEl.textContent = "Download CSV of what is shown (" + rows.length + " row" + (rows.length === 1 ? "" : "s") + ")";
    drawDiff(s, d);
    var n = ++drawing;
    delete chartEl.dataset.error;
    var spec = null;
    if (s.view === "bars") {
      spec = barsSpec(s, d, rows);
    } else if (s.view === "heatmap") {
      spec = heatmapSpec(s, d, rows);
    } else if (s.view === "ladder") {
      spec = ladderSpec(s, d, rows, changesShown(s, d, rows));
    }
    if (!spec || !rows.length) {
      forget();
      chartEl.textContent = "";
      chartEl.dataset.rows = String(rows.length);
      chartEl.dataset.rendered = String(n);
      return Promise.resolve();
    }
    var parts = splitData(spec);
    var done = function (v) {
      if (n !== drawing) {
        return;
      }
      chartEl.dataset.rows = String(v.data("table").length);
      markWide();
      chartEl.dataset.ms = (performance.now() - started).toFixed(1);
      chartEl.dataset.rendered = String(n);
    };
    // Same chart, other numbers (a new base, other thread counts, another search): the compiled
    // view takes the new rows; only a new shape of chart is compiled and embedded again.
    if (view && parts.shape === shape) {
      Object.keys(parts.values).forEach(function (name) {
        view.data(name, parts.values[name]);
      });
      return view.runAsync().then(done).catch(failed);
    }
    forget();
    chartEl.textContent = "";
    // Legend and axis labels whole, as on the site's charts (render/specs.py CONFIG): build.config
    // names differ at their ends, and a cut label shows two variants under one name. Numeric
    // labels that would touch are thinned, as there too: on a phone the bars' log axis of rQPS
    // drew 0.4 beside 0.5 and 0.7 beside 0.9, read '0.40.5' and '0.70.9'.
    spec.config = Object.assign({}, spec.config, {
      axis: Object.assign({ labelLimit: 0 }, spec.config && spec.config.axis),
      axisQuantitative: Object.assign({ labelOverlap: "greedy", labelSeparation: 4 },
                                      spec.config && spec.config.axisQuantitative),
      legend: Object.assign({ labelLimit: 0 }, spec.config && spec.config.legend)
    });
    return vegaEmbed(chartEl, spec, EMBED).then(function (res) {
      if (n !== drawing) {
        res.view.finalize();
        return;
      }
      view = res.view;
      window.papercutsExportsByKeyboard(chartEl, res.view, EMBED.scaleFactor);  // exports.js
      shape = parts.shape;
      done(res.view);
    }).catch(failed);
  }

  function forget() {
    if (view) {
      view.finalize();
      view = null;
      shape = null;
    }
  }

  // The spec's inline datasets by name, and the spec without them (its shape).
  function splitData(spec) {
    var values = {};
    var holders = [spec.data].concat((spec.layer || []).map(function (l) { return l.data; }))
      .filter(function (d) { return d && d.name && d.values; });
    holders.forEach(function (d) {
      values[d.name] = d.values;
      d.values = [];
    });
    var text = JSON.stringify(spec);
    holders.forEach(function (d) {
      d.values = values[d.name];
    });
    return { values: values, shape: text };
  }

  function failed(err) {
    chartEl.dataset.error = err && err.message ? err.message : String(err);
    console.error("explore: " + chartEl.dataset.error);
  }

  function apply(raw, push) {
    var started = performance.now();
    var notes = [];
    var server = raw.server;
    if (!server || !serverOption(server)) {
      if (server) {
        notes.push("Server '" + server + "' has no data here; showing " + defaultServer() + ".");
      }
      server = defaultServer();
    }
    return loadServer(server).then(function (d) {
      var s = settle(raw, d, notes);
      var needCosts = s.metric !== "rqps" && s.metric !== "qps";
      return (needCosts ? loadCosts(server) : Promise.resolve(null)).then(function (costs) {
        if (needCosts && (!costs || costs.metrics.indexOf(s.metric) < 0)) {
          notes.push("No " + metricLabel(s) + " on " + server + "; showing rQPS.");
          s.metric = "rqps";
        }
        showControls(s, d);
        writeURL(s, push);
        return render(s, d, costs, notes, started);
      });
    }).catch(function (err) {
      chartEl.dataset.error = err && err.message ? err.message : String(err);
      note(["The data could not be read: " + chartEl.dataset.error]);
    });
  }

  if (typeof vegaEmbed === "undefined") {
    chartEl.dataset.error = "vega-embed is not loaded";
    return;
  }
  var searchTimer = null;
  form.addEventListener("change", function (e) {
    var raw = fromForm();
    if (e.target.name === "server") {
      raw = { server: raw.server };
    } else if (e.target.name === "campaign") {
      raw = { server: raw.server, campaign: raw.campaign, dbms: raw.dbms, metric: raw.metric, view: raw.view,
              groups: raw.groups, q: raw.q };
    } else if (e.target.name === "dbms" || e.target.name === "base") {
      raw.variants = null;
    }
    apply(raw, true);
  });
  form.addEventListener("input", function (e) {
    if (e.target.name !== "q") {
      return;
    }
    clearTimeout(searchTimer);
    searchTimer = setTimeout(function () { apply(fromForm(), false); }, 120);
  });
  form.addEventListener("click", function (e) {
    var which = e.target.dataset && e.target.dataset.select;
    if (!which) {
      return;
    }
    Array.prototype.forEach.call(form.querySelectorAll('input[name="variants"]'), function (i) {
      i.checked = which === "all";
    });
    apply(fromForm(), true);
  });
  form.addEventListener("submit", function (e) { e.preventDefault(); });
  tableBox.addEventListener("toggle", function () {
    if (tableBox.open) {
      showTable();
    }
  });
  // Made at the click, before the browser follows the link.
  csvEl.addEventListener("click", function () {
    if (shown) {
      setCsv(shown.s, shown.rows);
    }
  });
  diffForm.addEventListener("change", function () { apply(fromForm(), true); });
  window.addEventListener("popstate", function () { apply(readURL(), false); });
  apply(readURL(), false);
})();
