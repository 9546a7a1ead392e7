#!/usr/bin/env bash
# How closely 4 local workers follow a rate schedule together: the controller splits
# --stages '20k:10s,20k:30s,0:5s' (up to 20k/s over 10 s, held 30 s, down over 5 s) by weight, and each merged interval's
# rate is compared with the rate the stages set over that interval. One echo-server process; ROUNDS runs. Prints, per
# round, the largest deviation of any interval (of those due 1,000 requests or more), the share of intervals within 2%,
# and the requests against those due; then the median and range over the rounds.
#
# The largest deviation is given over all intervals and over those from WARM_S seconds on (default 10), after the
# JVMs' JIT: six JVMs on two cores stall for up to a second while they compile, and the replies of a stall then land
# in the next interval (the requests still leave on time; their corrected latency shows the stall).
#
# usage: bench/stages.sh JAR SERVER_JAR [ROUNDS] [STAGES]   (ANALYSE_ONLY=1: read the last run's output again)
set -euo pipefail
cd "$(dirname "$0")/.."
JAR=$1
SERVER=$2
ROUNDS=${3:-5}
STAGES=${4:-20k:10s,20k:30s,0:5s}
OUT=target/bench/stages
WARM_S=${WARM_S:-10}
if [ -z "${ANALYSE_ONLY:-}" ]; then
rm -rf "$OUT" && mkdir -p "$OUT"
java -jar "$SERVER" --tcp-port 0 --udp-port -1 --rpc-port -1 --metrics-port -1 --io-threads 1 --transport epoll \
  --idle-timeout 10m > "$OUT/server.out" 2> "$OUT/server.err" &
PID=$!
trap 'kill $PID 2>/dev/null; wait 2>/dev/null || true' EXIT
for _ in $(seq 100); do grep -q "listening tcp" "$OUT/server.out" 2>/dev/null && break; sleep 0.1; done
TARGET=127.0.0.1:$(sed -n 's/^listening tcp .*:\([0-9]*\)$/\1/p' "$OUT/server.out")
for round in $(seq "$ROUNDS"); do
  java -jar "$JAR" controller --workers 4 echo --target "$TARGET" --connections 200 --pipeline 4 \
    --stages "$STAGES" --json --report "$OUT/$round" > "$OUT/$round.json" 2> "$OUT/$round.err"
done
fi
python3 - "$OUT" "$ROUNDS" "$WARM_S" <<'PY'
import csv, json, statistics, sys
out, rounds, warm_s = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])

def schedule(st):
    starts, froms, before, end, last, total = [], [], [], 0.0, 0.0, 0.0
    for x in st:
        f = x["target"] if x["step"] else last
        starts.append(end); froms.append(f); before.append(total)
        total += (f + x["target"]) / 2 * x["duration_s"]; end += x["duration_s"]; last = x["target"]
    def count_by(t):
        if t <= 0: return 0.0
        if t >= end: return total
        i = max(j for j in range(len(st)) if starts[j] <= t)
        d = t - starts[i]; slope = (st[i]["target"] - froms[i]) / st[i]["duration_s"]
        return before[i] + froms[i] * d + slope * d * d / 2
    return count_by, total

worst, worst_warm, within, ratio = [], [], [], []
for r in range(1, rounds + 1):
    # A merged interval is the sum of the workers' intervals of that index, each over that worker's own clock (a cold
    # JVM's first interval may end 100 ms late, its second then shorter). What was due is summed the same way: each
    # worker's own stages (its share of the whole) over each of its intervals' real span.
    due_total, ok_by, due_by, start_by = 0.0, {}, {}, {}
    for w in range(4):
        config = json.load(open(f"{out}/{r}/workers/{w}/config.json"))
        count_by, due = schedule(config["stages"]["stages"])
        due_total += due
        prev = 0.0
        for i, row in enumerate(csv.DictReader(open(f"{out}/{r}/workers/{w}/intervals.csv"))):
            t = float(row["time_s"])
            ok_by[i] = ok_by.get(i, 0) + int(row["ok"])
            due_by[i] = due_by.get(i, 0.0) + count_by(t) - count_by(prev)
            start_by[i] = max(start_by.get(i, 0.0), prev)
            prev = t
    due = due_total
    # Intervals due at least 1,000 requests: the ramps' ends included, not their first milliseconds.
    devs = [abs(ok_by[i] - due_by[i]) / due_by[i] for i in sorted(due_by) if due_by[i] >= 1000]
    warm = [abs(ok_by[i] - due_by[i]) / due_by[i] for i in sorted(due_by) if due_by[i] >= 1000
            and start_by[i] >= warm_s - 0.5]
    summary = json.load(open(f"{out}/{r}.json"))["merged"]
    worst.append(max(devs)); worst_warm.append(max(warm)); within.append(sum(d <= 0.02 for d in devs) / len(devs)); ratio.append(summary["ok"] / due)
    print(f"round {r}: {len(devs)} intervals, largest deviation {max(devs):.2%} ({max(warm):.2%} from {warm_s:g} s), "
          f"within 2% {within[-1]:.0%}, "
          f"median {statistics.median(devs):.2%}, requests {summary['ok']} of {due:.0f} due, errors {summary['errors']}")
print(f"largest deviation: median {statistics.median(worst):.2%} (range {min(worst):.2%}-{max(worst):.2%}); "
      f"from {warm_s:g} s: median {statistics.median(worst_warm):.2%} (range {min(worst_warm):.2%}-{max(worst_warm):.2%}); "
      f"intervals within 2%: median {statistics.median(within):.0%} (range {min(within):.0%}-{max(within):.0%}); "
      f"requests/due: median {statistics.median(ratio):.4f} (range {min(ratio):.4f}-{max(ratio):.4f})")
PY
