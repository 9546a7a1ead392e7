// What report.html and the comparison page share: page elements, number formats, and uPlot charts. Every chart
// drawn is listed in #chart-check (id, series, points per series), so a headless browser can check what is on the page.
var RicochetCharts = (function () {
  "use strict";
  var root = document.getElementById("report");
  var drawn = [];
  var COLORS = ["#1f6feb", "#d1242f", "#1a7f37", "#9a6700", "#8250df", "#bf3989", "#0a7ea4", "#57606a"];
  var WIDTH = Math.min(1200, Math.max(640, window.innerWidth - 64));

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  function section(title, note) {
    root.appendChild(el("h2", {}, title));
    if (note) root.appendChild(el("div", { "class": "note" }, note));
  }
  function num(v, digits) {
    if (v === null || v === undefined || (typeof v === "number" && isNaN(v))) return "-";
    if (typeof v !== "number") return String(v);
    return v.toLocaleString("en-US", { maximumFractionDigits: digits === undefined ? 1 : digits });
  }
  function us(v) {
    if (v === null || v === undefined) return "-";
    return v >= 1e6 ? num(v / 1e6, 2) + " s" : v >= 1000 ? num(v / 1000, 2) + " ms" : num(v, 0) + " µs";
  }
  function present(values) {
    return (values || []).filter(function (v) { return v !== null && v !== undefined; }).length;
  }

  // One uPlot: x values, then each series as {label, values, scale?, dash?, bars?}.
  function chart(id, title, xLabel, x, series, opts) {
    opts = opts || {};
    series = series.filter(function (s) { return s.values && present(s.values) > 0; });
    if (!x || x.length === 0 || series.length === 0) return;
    var box = el("div", { "class": "chart", id: id });
    root.appendChild(box);
    var scales = { x: { time: false } };
    if (opts.logX) scales.x.distr = 3;
    var axes = [{ label: xLabel, values: opts.xValues, splits: opts.xSplits }];
    var seenScales = {};
    series.forEach(function (s) {
      var scale = s.scale || "y";
      if (!seenScales[scale]) {
        seenScales[scale] = true;
        scales[scale] = opts.logY && scale === "y" ? { distr: 3 }
          : { range: function (u, min, max) { return [Math.min(0, min), max > 0 ? max * 1.05 : 1]; } };
        axes.push({ scale: scale, label: s.axis || s.label, side: scale === "y" ? 3 : 1,
          grid: { show: scale === "y" }, size: 70 });
      }
    });
    var uSeries = [{ label: xLabel }].concat(series.map(function (s, i) {
      var u = { label: s.label, scale: s.scale || "y", stroke: s.color || COLORS[i % COLORS.length], width: 1.5,
        spanGaps: s.spanGaps === true, points: { show: s.points === true || x.length < 40 } };
      if (s.dash) u.dash = [6, 4];
      if (s.bars) { u.paths = uPlot.paths.bars({ size: [0.6, 60] }); u.fill = (s.color || COLORS[i % COLORS.length]) + "66"; }
      return u;
    }));
    var plot = new uPlot({ title: title, width: WIDTH, height: 280, scales: scales, axes: axes, series: uSeries,
      hooks: opts.hooks || {} }, [x].concat(series.map(function (s) { return s.values; })), box);
    drawn.push({ id: id, series: series.map(function (s) { return s.label; }),
      points: series.map(function (s) { return present(s.values); }), xPoints: x.length });
    return plot;
  }

  function table(headers, rows, leftColumns) {
    var t = el("table");
    var tr = el("tr");
    headers.forEach(function (h, i) { tr.appendChild(el("th", { "class": i < (leftColumns || 1) ? "l" : "" }, h)); });
    t.appendChild(tr);
    rows.forEach(function (r) {
      var row = el("tr");
      r.forEach(function (c, i) { row.appendChild(el("td", { "class": i < (leftColumns || 1) ? "l" : "" }, c)); });
      t.appendChild(row);
    });
    root.appendChild(t);
  }

  function tiles(items) {
    var box = el("div", { "class": "tiles" });
    items.forEach(function (it) {
      var t = el("div", { "class": "tile" + (it.bad ? " bad" : "") });
      t.appendChild(el("b", {}, it.value));
      t.appendChild(el("span", {}, it.label));
      box.appendChild(t);
    });
    root.appendChild(box);
  }

  // Spectra: HdrHistogram's percentile plot, x = 1/(1-p) on a log axis.
  function spectrum(id, title, kinds) {
    var points = kinds.filter(function (k) { return k.log && k.log.spectrum_percentile && k.log.spectrum_percentile.length; });
    if (!points.length) return;
    // One x axis for all: the union of the percentiles, each series null where it has no point.
    var xs = [];
    points.forEach(function (k) { k.log.spectrum_percentile.forEach(function (p) { xs.push(1 / (1 - p / 100)); }); });
    xs = xs.filter(function (v, i, a) { return a.indexOf(v) === i; }).sort(function (a, b) { return a - b; });
    var series = points.map(function (k) {
      var byX = {};
      k.log.spectrum_percentile.forEach(function (p, i) { byX[1 / (1 - p / 100)] = k.log.spectrum_us[i]; });
      return { label: k.label, values: xs.map(function (x) { return byX[x] === undefined ? null : byX[x]; }),
        axis: "µs", points: true };
    });
    series.forEach(function (s) { s.spanGaps = true; });
    // Ticks at 0%, 90%, 99%, 99.9%, ...: the decades of 1/(1-p).
    chart(id, title, "percentile", xs, series, { logX: true, logY: true,
      xSplits: function (u) {
        var splits = [];
        for (var x = 1; x <= u.scales.x.max * 1.0001; x *= 10) splits.push(x);
        return splits;
      },
      xValues: function (u, vals) {
        return vals.map(function (v) {
          return (100 * (1 - 1 / v)).toFixed(Math.max(0, Math.round(Math.log10(v)) - 2)) + "%";
        });
      } });
  }
  function done() {
    document.getElementById("chart-check").textContent = JSON.stringify(drawn);
  }

  return { COLORS: COLORS, el: el, section: section, num: num, us: us, present: present, chart: chart, table: table,
    tiles: tiles, spectrum: spectrum, root: root, done: done };
})();
