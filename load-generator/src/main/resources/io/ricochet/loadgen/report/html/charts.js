// What report.html and the comparison page share: page elements, number formats, and uPlot charts. Every chart
// drawn is listed in #chart-check (id, series, points per series, and each axis's ticks with the labels that do not
// fit), so a headless browser can check what is on the page.
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

  // Latency ticks in the unit that reads best: 200 µs, 5 ms, 1 s.
  function usTick(v) {
    if (v === null) return null;
    return v === 0 ? "0" : v >= 1e6 ? num(v / 1e6, 3) + " s" : v >= 1000 ? num(v / 1000, 3) + " ms" : num(v, 1) + " µs";
  }
  function usTicks(u, vals) { return vals.map(usTick); }

  // A shaded stretch of x with a label, under the grid and the series: a phase that is not like the rest.
  function shade(band) {
    return function (u) {
      var from = u.valToPos(Math.max(band.from, u.scales.x.min), "x", true);
      var to = u.valToPos(Math.min(band.to, u.scales.x.max), "x", true);
      var ctx = u.ctx;
      ctx.save();
      ctx.fillStyle = "rgba(154, 103, 0, 0.12)";
      ctx.fillRect(from, u.bbox.top, to - from, u.bbox.height);
      ctx.fillStyle = "#6e5200";
      ctx.font = Math.round(11 * uPlot.pxRatio) + "px system-ui, sans-serif";
      ctx.textAlign = "left";
      ctx.textBaseline = "top";
      ctx.fillText(band.label, from + 4 * uPlot.pxRatio, u.bbox.top + 4 * uPlot.pxRatio);
      ctx.restore();
    };
  }

  // One uPlot: x values, then each series as {label, values, scale?, axis?, ticks?, dash?, bars?, pointsOnly?}.
  // opts: logX, logY, xValues and xSplits (x ticks), categories (a label per x value: a tick at each, none between),
  // xRange, band ({from, to, label}), sync (a cursor shared by the charts with that key), height, minAxis.
  function chart(id, title, xLabel, x, series, opts) {
    opts = opts || {};
    series = series.filter(function (s) { return s.values && present(s.values) > 0; });
    if (!x || x.length === 0 || series.length === 0) return;
    var box = el("div", { "class": "chart", id: id });
    root.appendChild(box);
    var scales = { x: { time: false } };
    var xAxis = { label: xLabel, values: opts.xValues, splits: opts.xSplits };
    if (opts.logX) scales.x.distr = 3;
    if (opts.categories) {
      // Half a slot each side, so the first and last bars are whole.
      scales.x.range = function (u, min, max) { return [min - 0.5, max + 0.5]; };
      xAxis.splits = function () { return x.slice(); };
      xAxis.values = function (u, vals) {
        return vals.map(function (v) { var i = x.indexOf(v); return i < 0 ? null : opts.categories[i]; });
      };
    } else if (opts.xRange) {
      scales.x.range = function () { return opts.xRange.slice(); };
    }
    var axes = [xAxis];
    var size = function (u, values, i) { return Math.max(opts.minAxis || 0, RicochetLayout.axisSize(u, values, i)); };
    series.forEach(function (s) {
      var scale = s.scale || "y";
      if (scales[scale]) return;
      scales[scale] = opts.logY && scale === "y" ? { distr: 3 }
        : { range: function (u, min, max) { return [Math.min(0, min), max > 0 ? max * 1.05 : 1]; } };
      axes.push({ scale: scale, label: s.axis || s.label, side: axes.length === 1 ? 3 : 1,
        grid: { show: axes.length === 1 }, size: size, values: s.ticks });
    });
    var uSeries = [{ label: xLabel }].concat(series.map(function (s, i) {
      var color = s.color || COLORS[i % COLORS.length];
      var u = { label: s.label, scale: s.scale || "y", stroke: color, width: 1.5,
        spanGaps: s.spanGaps === true, points: { show: s.points === true || (x.length < 40 && !s.bars) } };
      if (s.dash) u.dash = [6, 4];
      if (s.bars) { u.paths = uPlot.paths.bars({ size: [0.6, 60] }); u.fill = color + "66"; }
      if (s.pointsOnly) { u.paths = function () { return null; }; u.points = { show: true, size: 9, fill: color }; }
      return u;
    }));
    var values = series.map(function (s) {
      // A log scale has no place for 0: such a point is left out rather than drawn at the bottom.
      var log = scales[s.scale || "y"].distr === 3;
      return log ? s.values.map(function (v) { return v !== null && v > 0 ? v : null; }) : s.values;
    });
    var plot = new uPlot({ title: title, width: WIDTH, height: opts.height || 280, scales: scales, axes: axes,
      series: uSeries, padding: [null, RicochetLayout.padRight, null, null],
      cursor: opts.sync ? { sync: { key: opts.sync } } : {},
      hooks: opts.band ? { drawClear: [shade(opts.band)] } : {} }, [x].concat(values), box);
    drawn.push({ id: id, series: series.map(function (s) { return s.label; }),
      points: series.map(function (s) { return present(s.values); }), xPoints: x.length,
      band: opts.band ? opts.band.label : null, plot: plot });
    return plot;
  }

  function table(headers, rows, leftColumns, id) {
    var t = el("table", id ? { id: id } : {});
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
        axis: "latency", ticks: usTicks, points: true };
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
  // uPlot draws in a microtask: the layout is read in one queued after theirs.
  function done() {
    queueMicrotask(function () {
      drawn.forEach(function (d) { d.axes = RicochetLayout.check(d.plot); delete d.plot; });
      document.getElementById("chart-check").textContent = JSON.stringify(drawn);
    });
  }

  return { COLORS: COLORS, el: el, section: section, num: num, us: us, usTicks: usTicks, present: present, chart: chart,
    table: table, tiles: tiles, spectrum: spectrum, root: root, done: done };
})();
