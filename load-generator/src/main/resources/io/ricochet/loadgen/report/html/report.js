// Draws report.html from the run's data (inlined by HtmlReport), with the helpers of charts.js.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("data").textContent);
  var C = RicochetCharts;
  var el = C.el, section = C.section, num = C.num, us = C.us, present = C.present, chart = C.chart, table = C.table,
    tiles = C.tiles, spectrum = C.spectrum, root = C.root, COLORS = C.COLORS;

  var s = data.summary || {};
  var merged = s.merged || s;           // a controller's summary: the merged run's keys (and, before schema 1, only under merged)
  var config = data.config || {};
  var command = config.command || s.command || merged.command || "run";
  var kind = config.latency_kind || merged.latency_kind || s.latency_kind || "";
  var latencyName = kind.indexOf("corrected") === 0 ? "corrected latency (from the intended send)"
    : kind === "closed_loop" ? "service latency (closed loop: from the actual send)" : "latency";

  root.appendChild(el("h1", {}, "Ricochet " + command + (merged.target ? " → " + merged.target : "")));
  root.appendChild(el("div", { "class": "sub" }, data.title + (merged.io ? " · client I/O " + merged.io : "")
    + (s.workers ? " · " + (Array.isArray(s.workers) ? s.workers.length : s.workers) + " workers (" + s.executor + ")"
      : "")));

  // What and where it ran (RunMetadata), one line.
  var run = s.run || config.run;
  if (run) {
    var ric = run.ricochet || {}, jvm = run.jvm || {}, host = run.host || {};
    root.appendChild(el("div", { "class": "sub" }, "started " + run.started_utc + " · Ricochet " + ric.version
      + " (" + ric.commit + ") · " + jvm.vendor + " " + jvm.version + " · " + host.name + ", " + host.cores
      + " cores, " + num(host.memory_bytes / 1073741824, 1) + " GiB · " + run.kernel));
  }

  // A run that did not finish: its summary was rebuilt from the intervals, and says from what.
  if (s.reconstructed) root.appendChild(el("div", { "class": "sub" }, s.reconstructed));

  // Headline figures.
  var headline = [];
  if (merged.qps !== undefined) headline.push({ label: "QPS", value: num(merged.qps, 0) });
  if (merged.requests !== undefined) headline.push({ label: "requests", value: num(merged.requests, 0) });
  if (merged.ok !== undefined) headline.push({ label: "ok", value: num(merged.ok, 0) });
  if (merged.received_ok !== undefined) headline.push({ label: "ok", value: num(merged.received_ok, 0) });
  ["bad", "errors", "connect_failures"].forEach(function (k) {
    if (merged[k] !== undefined) headline.push({ label: k.replace("_", " "), value: num(merged[k], 0), bad: merged[k] > 0 });
  });
  // Frames that answered no request: not among the requests, shown when there were any.
  if (merged.unexpected) headline.push({ label: "unexpected", value: num(merged.unexpected, 0), bad: true });
  var lat = merged.latency_us;
  if (lat) {
    headline.push({ label: "p50", value: us(lat.p50) });
    headline.push({ label: "p99", value: us(lat.p99) });
    headline.push({ label: "max", value: us(lat.max) });
  }
  if (merged.sent_pps !== undefined) {
    headline.push({ label: "sent pps", value: num(merged.sent_pps, 0) });
    headline.push({ label: "received pps", value: num(merged.received_pps, 0) });
    headline.push({ label: "loss", value: num(merged.loss * 100, 2) + "%", bad: merged.loss > 0 });
  }
  if (s.verdict) headline.push({ label: "verdict", value: s.verdict });
  if (s.knee_rate) headline.push({ label: "knee", value: num(s.knee_rate, 0) + "/s, p99 " + us(s.knee_p99_us) });
  if (merged.first_error) headline.push({ label: "first error", value: merged.first_error, bad: true });
  if (merged.first_bad) headline.push({ label: "first bad reply", value: merged.first_bad, bad: true });
  (s.thresholds || []).forEach(function (t) {
    var actual = t.actual === null || t.actual === undefined ? t.note : t.metric + " = " + num(t.actual, 4);
    // When the live judge first saw it broken, in seconds of measurement: the time axis of the charts below.
    var first = t.first_broken_s === null || t.first_broken_s === undefined ? ""
      : ", first broken at " + num(t.first_broken_s, 1) + " s";
    headline.push({ label: "threshold " + t.expression + ": " + actual + first, value: t.passed ? "passed" : "broken",
      bad: !t.passed });
  });
  if (s.aborted) headline.push({ label: "aborted", value: s.aborted, bad: true });
  tiles(headline);

  // The stages as functions of time (seconds from the start): the target, ramping or held, and the requests due so
  // far, as the generator's Stages computes them.
  function schedule(st) {
    var list = st.stages, starts = [], froms = [], before = [], end = 0, last = 0, total = 0;
    list.forEach(function (x) {
      var from = x.step ? x.target : last;
      starts.push(end); froms.push(from); before.push(total);
      total += (from + x.target) / 2 * x.duration_s;
      end += x.duration_s;
      last = x.target;
    });
    function at(t) {
      var i = 0;
      while (i + 1 < list.length && starts[i + 1] <= t) i++;
      return i;
    }
    return {
      target: function (t) {
        if (t >= end) return last;
        var i = at(Math.max(0, t));
        return froms[i] + (list[i].target - froms[i]) * (Math.max(0, t) - starts[i]) / list[i].duration_s;
      },
      countBy: function (t) {
        if (t <= 0) return 0;
        if (t >= end) return total;
        var i = at(t), d = t - starts[i], slope = (list[i].target - froms[i]) / list[i].duration_s;
        return before[i] + froms[i] * d + slope * d * d / 2;
      }
    };
  }

  // Over time, from intervals.csv and latency.hlog: one time axis and one cursor for every chart of it, with the
  // warmup shaded before the first interval, or, with none, the first interval, which then holds the start-up.
  var iv = data.intervals;
  var timeOpts = { sync: "time" };
  function overTime(times) {
    var end = times[times.length - 1];
    if (config.warmup_s > 0) {
      return { sync: "time", xRange: [-config.warmup_s, end],
        band: { from: -config.warmup_s, to: 0, label: "warmup " + num(config.warmup_s) + " s, not measured" } };
    }
    if (config.warmup_s === 0 && times.length > 1) {
      return { sync: "time", xRange: [0, end],
        band: { from: 0, to: times[0], label: "first interval: no warmup, start-up included" } };
    }
    return { sync: "time" };
  }
  if (iv && iv.time_s && iv.time_s.length) {
    timeOpts = overTime(iv.time_s);
    var stages = config.stages ? schedule(config.stages) : null;
    section("Throughput over time", "requests ended per second in each interval; errors and bad replies per interval"
      + (stages && config.stages.kind === "rate" ? "; dashed, the rate the stages set (" + config.stages.text + ")" : ""));
    var throughput = [
      { label: "QPS", values: iv.qps, axis: "requests/s" },
      { label: "errors", values: iv.errors, scale: "n", axis: "per interval", color: COLORS[1] },
      { label: "bad", values: iv.bad, scale: "n", axis: "per interval", color: COLORS[3] }
    ];
    if (stages && config.stages.kind === "rate") {
      // Each interval's due rate: the requests the stages set from its start to its end, over its length.
      throughput.splice(1, 0, { label: "stages", dash: true, color: COLORS[2], values: iv.time_s.map(function (t, i) {
        var from = i === 0 ? 0 : iv.time_s[i - 1];
        return t > from ? (stages.countBy(t) - stages.countBy(from)) / (t - from) : null;
      }) });
    }
    chart("chart-throughput", "QPS, errors and bad replies", "time (s)", iv.time_s, throughput, timeOpts);
    if (stages && config.stages.kind === "connections") {
      section("Connections over time", "the connections open at each interval's end; dashed, the stages' target ("
        + config.stages.text + ")");
      chart("chart-stage-connections", "Connections", "time (s)", iv.time_s, [
        { label: "open", values: iv.connections, axis: "connections" },
        { label: "stages", dash: true, color: COLORS[2], values: iv.time_s.map(function (t, i) {
          // Just before the interval's nominal end: a step there is the next interval's, as the run saw it.
          var nominal = config.interval_s ? Math.min(t, (i + 1) * config.interval_s) : t;
          return Math.floor(stages.target(nominal - 1e-6) + 1e-9);
        }) }
      ], timeOpts);
    }
  }
  var lg = data.latency || {};
  var primary = lg.latency;
  if (primary && primary.total > 0) {
    // Open loop logs the service latency beside the corrected one; closed loop's latency is the service latency.
    var service = lg.service && lg.service.total > 0 ? lg.service : null;
    section("Latency over time", latencyName + ", per interval, on a log scale so that a slow interval does not "
      + "flatten the others" + (service ? "; the service latency's p99 (from the actual send) is dashed" : ""));
    var over = [
      { label: "p50", values: primary.p50, axis: "latency", ticks: C.usTicks },
      { label: "p90", values: primary.p90 },
      { label: "p99", values: primary.p99 },
      { label: "max", values: primary.max }
    ];
    if (service) over.push({ label: "service p99", values: service.p99, dash: true });
    // The log's intervals are the rows of intervals.csv: the same time axis, measured from the start of measurement.
    var latencyTime = iv && iv.time_s && iv.time_s.length === primary.time.length ? iv.time_s : primary.time;
    var latencyOpts = latencyTime === primary.time ? overTime(primary.time) : timeOpts;
    chart("chart-latency", "Latency percentiles", "time (s)", latencyTime, over,
      Object.assign({ logY: true }, latencyOpts));
  }

  if (primary && primary.total > 0) {
    section("Latency spectrum", "the whole run's percentiles, as HdrHistogram plots them: x is 1/(1−p) on a log scale");
    spectrum("chart-spectrum", "Latency by percentile", [{ label: latencyName.split(" (")[0], log: primary },
      { label: "service latency", log: lg.service }]);
  }
  if ((lg.connect && lg.connect.total > 0) || (lg.handshake && lg.handshake.total > 0)) {
    section("Connect and handshake times", "each connection's connect (and TLS or Noise handshake) time, by percentile");
    spectrum("chart-connect", "Connect time by percentile", [{ label: "connect", log: lg.connect },
      { label: "handshake", log: lg.handshake }]);
  }

  // The server, scraped each interval.
  // One small chart per quantity, on the time axis of the charts above, rather than three y axes on one.
  if (iv && iv.time_s && (present(iv.server_cpu) || present(iv.server_rss_bytes))) {
    section("Server", "scraped from its /metrics every interval: CPU (share of the machine), RSS, and the run's open connections");
    var small = Object.assign({ height: 200, minAxis: 70 }, timeOpts);
    chart("chart-server-cpu", "Server CPU", "time (s)", iv.time_s, [{ label: "server CPU %", axis: "CPU %",
      values: (iv.server_cpu || []).map(function (v) { return v === null ? null : v * 100; }) }], small);
    chart("chart-server-rss", "Server RSS", "time (s)", iv.time_s, [{ label: "server RSS MB", axis: "MB", color: COLORS[2],
      values: (iv.server_rss_bytes || []).map(function (v) { return v === null ? null : v / 1048576; }) }], small);
    chart("chart-server-connections", "The run's connections", "time (s)", iv.time_s, [{ label: "connections",
      axis: "connections", values: iv.connections, color: COLORS[4] }], small);
  }
  // Several servers scraped: the figures above are their sum; each one's own, as summary.json's server.servers.
  var servers = (merged.server && merged.server.servers) || [];
  if (servers.length > 1) {
    section("Servers", "each scraped server's own figures; the run's server figures are their sum");
    table(["server", "CPU max", "RSS max MB", "connections max", "frames.sent", "RPC requests"], servers.map(function (v) {
      return [v.url, v.cpu_max === null ? "-" : num(v.cpu_max * 100, 1) + "%",
        v.rss_max_bytes === null ? "-" : num(v.rss_max_bytes / 1048576, 1), num(v.active_connections_max, 0),
        num(v.frames_sent, 0), num(v.rpc_requests, 0)];
    }));
  }

  // Sweep: libonev's four figures. Ramp: offered rate against p99, with the knee.
  var steps = s.steps || [];
  if (command === "sweep" && steps.length) {
    var bySize = steps.filter(function (r) { return r.kind === "size"; });
    var byCount = steps.filter(function (r) { return r.kind === "count"; });
    if (bySize.length) {
      section("Size sweep", "each step sends the same number of requests at one body size");
      var sizes = bySize.map(function (r) { return r.size; });
      chart("chart-sweep-size-qps", "Size → QPS", "body bytes", sizes, [{ label: "QPS", values: bySize.map(function (r) { return r.qps; }), axis: "requests/s", points: true }], { logX: true });
      chart("chart-sweep-size-mbps", "Size → MB/s", "body bytes", sizes, [{ label: "MB/s", values: bySize.map(function (r) { return r.mb_per_s; }), axis: "MB/s", points: true, color: COLORS[2] }], { logX: true });
    }
    if (byCount.length) {
      section("Count sweep", "each step sends a different number of requests at one body size");
      var counts = byCount.map(function (r) { return r.requests; });
      chart("chart-sweep-count-qps", "Count → QPS", "requests", counts, [{ label: "QPS", values: byCount.map(function (r) { return r.qps; }), axis: "requests/s", points: true }]);
      chart("chart-sweep-count-mbps", "Count → MB/s", "requests", counts, [{ label: "MB/s", values: byCount.map(function (r) { return r.mb_per_s; }), axis: "MB/s", points: true, color: COLORS[2] }]);
    }
  }
  if (command === "ramp" && steps.length) {
    section("Ramp", "each step's offered rate against its corrected p99; the knee is the highest rate that met the SLO");
    var byRate = steps.slice().sort(function (a, b) { return a.target_rate - b.target_rate; });
    var knee = s.knee_rate;
    chart("chart-ramp", "Offered rate → p99", "offered requests/s", byRate.map(function (r) { return r.target_rate; }), [
      { label: "p99", values: byRate.map(function (r) { return r.p99_us; }), axis: "µs", points: true },
      { label: "knee", values: byRate.map(function (r) { return r.target_rate === knee ? r.p99_us : null; }),
        color: COLORS[1], points: true }
    ], { logY: true });
  }
  if (steps.length) {
    section("Steps");
    table(["step", "kind", "size", "offered/s", "requests", "ok", "bad", "errors", "QPS", "MB/s", "p50", "p99", "max", "passed"],
      steps.map(function (r) {
        return [String(r.step), r.kind || "", num(r.size, 0), r.target_rate ? num(r.target_rate, 0) : "-", num(r.requests, 0),
          num(r.ok, 0), num(r.bad, 0), num(r.errors, 0), num(r.qps, 0), num(r.mb_per_s, 2), us(r.p50_us), us(r.p99_us),
          us(r.max_us), r.passed ? "yes" : "no"];
      }), 2);
  }

  // RPC clients and distributed workers.
  var clients = s.clients || [];
  if (clients.length) {
    section("Clients", "each RPC client's share of the calls");
    chart("chart-clients", "QPS per client", "client", clients.map(function (c) { return c.client; }),
      [{ label: "QPS", values: clients.map(function (c) { return c.qps; }), axis: "calls/s", bars: true }]);
    table(["client", "requests", "ok", "bad", "errors", "QPS", "p50", "p99", "max"], clients.map(function (c) {
      return [String(c.client), num(c.requests, 0), num(c.ok, 0), num(c.bad, 0), num(c.errors, 0), num(c.qps, 1),
        us(c.latency_us.p50), us(c.latency_us.p99), us(c.latency_us.max)];
    }));
  }
  var workers = data.workers || (Array.isArray(s.workers) ? s.workers : s.worker_rows) || [];
  if (workers.length) {
    section("Workers", "each worker's share of the run");
    // Workers are categories: a tick and a bar at each index, nothing between, p99 as points in a panel of its own.
    var indices = workers.map(function (w) { return w.index; });
    var byWorker = { height: 200, minAxis: 70, categories: indices.map(String), sync: "workers" };
    chart("chart-workers", "Requests per worker", "worker", indices, [
      { label: "requests", values: workers.map(function (w) { return w.requests; }), axis: "requests", bars: true }
    ], byWorker);
    chart("chart-workers-p99", "p99 per worker", "worker", indices, [{ label: "p99", axis: "p99", ticks: C.usTicks,
      values: workers.map(function (w) { return w.p99_us; }), pointsOnly: true, color: COLORS[1] }], byWorker);
    // A worker lost after the start: from its lost_at_s on, the merged intervals miss its shard.
    table(["worker", "state", "host", "requests", "ok", "bad", "errors", "intervals", "p99", "exit", "lost at",
      "reason"], workers.map(function (w) {
      var lost = w.lost_at_s === null || w.lost_at_s === undefined || w.lost_at_s === "" ? ""
        : num(Number(w.lost_at_s), 1) + " s (its shard missing from then on)";
      return [String(w.index), w.state, w.host, num(w.requests, 0), num(w.ok, 0), num(w.bad, 0), num(w.errors, 0),
        num(w.intervals, 0), us(w.p99_us), String(w.exit_code), lost, w.reason || ""];
    }), 3);
  }

  // Everything the run was given.
  section("Configuration");
  // The run's stamp is in the header; its JVM flags are the part worth a row.
  var cfg = Object.keys(config).filter(function (k) { return k !== "run" && k !== "shards"; }).map(function (k) {
    var v = config[k];
    // A command line reads as one; other objects as JSON.
    if (k === "scenario" && Array.isArray(v)) return [k, v.join(" ")];
    return [k, typeof v === "object" && v !== null ? JSON.stringify(v) : String(v)];
  });
  if (run && run.jvm) cfg.push(["jvm flags", (run.jvm.flags || []).join(" ") || "(none)"]);
  if (cfg.length) table(["setting", "value"], cfg, 2);
  else root.appendChild(el("div", { "class": "note" }, "no config.json in this report directory"));
  if (Array.isArray(config.shards) && config.shards.length) {
    var shardPlan = RicochetShards.plan(config.shards, num);
    section("Shard plan", "what each worker was told to run, an option a column; a rate of 0 is said as what it "
      + "means for that option");
    table(shardPlan.headers, shardPlan.rows, 1, "shard-plan");
  }

  C.done();
})();
