// Draws the comparison page (ComparePage): the runs' latency spectra and QPS over time overlaid, and their figures
// side by side with each run's change against the first, with the helpers of charts.js.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("data").textContent);
  var C = RicochetCharts;
  var runs = data.runs;

  function figures(run) {
    var s = run.summary || {};
    var m = s.merged || s;
    var lat = m.latency_us || {};
    var server = m.server || {};
    return { command: (run.config || {}).command || m.command || "", target: m.target || "", qps: m.qps,
      p50: lat.p50, p99: lat.p99, max: lat.max, errors: m.errors, bad: m.bad,
      cpu: server.cpu_max === undefined || server.cpu_max === null ? null : server.cpu_max * 100 };
  }
  function delta(v, base) {
    if (v === null || v === undefined || base === null || base === undefined || base === 0) return "";
    var d = (v - base) / base * 100;
    return " (" + (d >= 0 ? "+" : "") + C.num(d, 1) + "%)";
  }

  C.root.appendChild(C.el("h1", {}, "Ricochet: " + runs.length + " runs compared"));
  C.root.appendChild(C.el("div", { "class": "sub" }, "changes are against the first run, " + runs[0].title));

  // Setups that differ change figures: said before the figures are.
  (data.warnings || []).forEach(function (w) { C.root.appendChild(C.el("div", { "class": "note" }, "warning: " + w)); });

  C.section("Setup", "what and where each run ran");
  C.table(["run", "started (UTC)", "Ricochet", "JVM", "host", "cores", "kernel", "client I/O"],
    runs.map(function (run) {
      var r = (run.summary || {}).run || {};
      var ric = r.ricochet || {}, jvm = r.jvm || {}, host = r.host || {};
      return [run.title, r.started_utc || "-", ric.version ? ric.version + " (" + ric.commit + ")" : "-",
        jvm.version ? (jvm.vendor + " " + jvm.version) : "-", host.name || "-",
        host.cores === undefined ? "-" : String(host.cores), r.kernel || "-", r.io || "-"];
    }), 1);

  C.section("Figures");
  var base = figures(runs[0]);
  C.table(["run", "command", "target", "QPS", "p50", "p99", "max", "errors", "bad", "server CPU max"],
    runs.map(function (run, i) {
      var f = figures(run);
      var d = i === 0 ? function () { return ""; } : delta;
      return [run.title, f.command, f.target, C.num(f.qps, 0) + d(f.qps, base.qps), C.us(f.p50) + d(f.p50, base.p50),
        C.us(f.p99) + d(f.p99, base.p99), C.us(f.max) + d(f.max, base.max), C.num(f.errors, 0) + d(f.errors, base.errors),
        C.num(f.bad, 0), f.cpu === null ? "-" : C.num(f.cpu, 1) + "%" + d(f.cpu, base.cpu)];
    }), 3);

  C.section("Latency spectra", "each run's reported latency by percentile, as HdrHistogram plots it");
  C.spectrum("chart-compare-spectrum", "Latency by percentile", runs.map(function (run) {
    return { label: run.title, log: (run.latency || {}).latency };
  }));

  // QPS over time: one x axis, the union of the runs' interval times, each run null where it has no interval.
  var withIntervals = runs.filter(function (run) { return run.intervals && run.intervals.time_s; });
  if (withIntervals.length) {
    C.section("QPS over time");
    var xs = [];
    withIntervals.forEach(function (run) { run.intervals.time_s.forEach(function (t) { xs.push(t); }); });
    xs = xs.filter(function (v, i, a) { return a.indexOf(v) === i; }).sort(function (a, b) { return a - b; });
    C.chart("chart-compare-qps", "QPS", "time (s)", xs, withIntervals.map(function (run) {
      var byTime = {};
      run.intervals.time_s.forEach(function (t, i) { byTime[t] = run.intervals.qps[i]; });
      return { label: run.title, axis: "requests/s", spanGaps: true,
        values: xs.map(function (t) { return byTime[t] === undefined ? null : byTime[t]; }) };
    }));
  }
  C.done();
})();
