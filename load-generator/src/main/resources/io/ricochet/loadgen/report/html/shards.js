// A distributed run's shard plan (config.json's "shards": each worker's scenario, or in reports made before issue 41
// each worker's command line) as a table: a row per worker, a column per setting, each worker's own share shown in
// its row even where the workers' shares are equal.
var RicochetShards = (function () {
  "use strict";
  // What 0 means for each rate, as its --help says; scenario keys and the older command lines' options.
  var ZERO = { "connect_rate": "all at once", "rate": "closed loop", "per_connection_rate": "none",
    "connect-rate": "all at once", "per-connection-rate": "none" };
  var RATES = ["connect_rate", "rate", "per_connection_rate"];

  // A scenario's keys, sections' as section.key, lists joined; a rate written as the command line writes it.
  function keys(scenario) {
    var f = {};
    (function walk(object, prefix) {
      Object.keys(object).forEach(function (k) {
        var v = object[k], name = prefix + k;
        if (v !== null && typeof v === "object" && !Array.isArray(v)) {
          walk(v, name + ".");
        } else {
          f[name] = Array.isArray(v) ? v.join(", ") : RATES.indexOf(name) >= 0 ? v + "/s" : String(v);
        }
      });
    })(scenario, "");
    return f;
  }

  function fields(args) {
    if (!Array.isArray(args)) return keys(args);
    var f = {};
    args.forEach(function (arg) {
      var m = /^--([^=]+)(?:=(.*))?$/.exec(arg);
      var name = m ? m[1] : "command";
      var value = m ? (m[2] === undefined ? "yes" : m[2]) : arg;
      f[name] = f[name] === undefined ? value : f[name] + ", " + value;   // a repeated option: every value
    });
    return f;
  }

  function format(name, value, num) {
    var rate = /^(\d+(?:\.\d+)?)\/s$/.exec(value);
    if (!rate) return value;
    var v = parseFloat(rate[1]);
    return v === 0 && ZERO[name] ? ZERO[name] : num(v, 2) + "/s";
  }

  // {headers, rows}: a column per option in the order the workers were given them, values formatted.
  function plan(shards, num) {
    var all = shards.map(fields);
    var names = [];
    all.forEach(function (f) { Object.keys(f).forEach(function (k) { if (names.indexOf(k) < 0) names.push(k); }); });
    return {
      headers: ["worker"].concat(names),
      rows: all.map(function (f, i) {
        return [String(i)].concat(names.map(function (k) { return f[k] === undefined ? "-" : format(k, f[k], num); }));
      })
    };
  }

  return { plan: plan };
})();
