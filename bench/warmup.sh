#!/usr/bin/env bash
# How long a fresh JVM takes to reach its steady rate, at 100 connections x 16 deep x 64 B, closed loop: the echo
# server driven by the C client (bench/native-echo-client, which needs no warm-up), and the load generator driving the
# C server (bench/native-echo-server). Each is launched fresh for every run, as a newly scheduled pod or a short JUnit
# load test launches it, and timed from its launch:
#   listening  the server's "listening tcp" line (the generator: its load's start, connections open);
#   first      the first 100 ms interval with a verified reply;
#   t95        the end of the first 1 s window whose rate is >= 95% of the steady rate, which is the median of
#              the 1 s windows of the run's last third.
# Each VARIANT is NAME=JVM_OPTIONS, run on both ends' JVM under test, interleaved round by round. The word
# @CDS in the options stands for an application class-data archive (JDK 13+ dynamic AppCDS) made for that JVM by a
# training run of 5 s at the same shape, before the rounds: -XX:SharedArchiveFile=<its archive>.
#
# usage: bench/warmup.sh [ROUNDS] [SECONDS] [VARIANT...]   (default: 5 rounds of 15 s, default='' cds='@CDS')
# Needs the built jars (mvn -B -ntp -DskipTests package) and gcc. Writes target/bench/warmup/results.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-5}
SECS=${2:-15}
shift $(( $# >= 2 ? 2 : $# ))
VARIANTS=("$@")
[ ${#VARIANTS[@]} -gt 0 ] || VARIANTS=("default=" "cds=@CDS")
OUT=target/bench/warmup
SERVER=${SERVER_JAR:-echo-server/target/echo-server.jar}
LOAD=${LOAD_JAR:-load-generator/target/load-generator.jar}
rm -rf "$OUT" && mkdir -p "$OUT"
gcc -O2 -Wall -o "$OUT/echo_client" bench/native-echo-client/echo_client.c
gcc -O2 -Wall -o "$OUT/echo_server" bench/native-echo-server/echo_server.c
PIDS=()
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true' EXIT

launch_clock() { date +%s.%N; }
wait_listening() { # file pid
  for _ in $(seq 3000); do
    grep -q "^listening tcp" "$1" 2>/dev/null && return 0
    kill -0 "$2" 2>/dev/null || { echo "process $2 died: $(cat "$1")" >&2; return 1; }
    sleep 0.01
  done
  echo "timed out waiting for $1" >&2; return 1
}
port_of() { sed -n 's/^listening tcp .*:\([0-9]*\)$/\1/p' "$1"; }

# The C server, shared by every generator run (it has no warm-up).
"$OUT/echo_server" 0 > "$OUT/c-server.out" &
PIDS+=($!)
wait_listening "$OUT/c-server.out" $!
C_PORT=$(port_of "$OUT/c-server.out")

opts_of() { # name -> JVM options of the variant for "server" or "generator"
  local spec=$1 side=$2
  local opts=${spec#*=}
  echo "${opts//@CDS/-XX:SharedArchiveFile=$OUT/${spec%%=*}-$side.jsa}"
}

server_run() { # name opts... ; prints: launch epoch, then its output lines
  local name=$1; shift
  local t0; t0=$(launch_clock)
  java "$@" -jar "$SERVER" --tcp-port 0 --udp-port -1 --rpc-port -1 --metrics-port -1 --io-threads 1 \
    --transport epoll > "$OUT/$name.server.out" 2> "$OUT/$name.server.err" &
  local pid=$!
  PIDS+=($pid)
  wait_listening "$OUT/$name.server.out" $pid
  local listening; listening=$(launch_clock)
  INTERVAL_MS=100 "$OUT/echo_client" 127.0.0.1 "$(port_of "$OUT/$name.server.out")" 100 16 64 "$SECS" \
    > "$OUT/$name.client.out"
  kill $pid; wait $pid 2>/dev/null || true
  echo "launch $t0 listening $listening" >> "$OUT/$name.client.out"
}

generator_run() { # name opts...
  local name=$1; shift
  local t0; t0=$(launch_clock)
  java "$@" -jar "$LOAD" echo --target "127.0.0.1:$C_PORT" --connections 100 --pipeline 16 --size 64 \
    --duration "${SECS}s" --warmup 0s --interval 100ms --timeout 10s --report "$OUT/$name.report" --json \
    > "$OUT/$name.json" 2> "$OUT/$name.err"
  echo "$t0" > "$OUT/$name.launch"
}

# Training runs for the archives that a variant asks for.
for spec in "${VARIANTS[@]}"; do
  vname=${spec%%=*}
  if [[ $spec == *@CDS* ]]; then
    server_run "train-$vname" -XX:ArchiveClassesAtExit="$OUT/$vname-server.jsa" > /dev/null
    SECS_SAVED=$SECS; SECS=5
    generator_run "train-$vname" -XX:ArchiveClassesAtExit="$OUT/$vname-generator.jsa"
    SECS=$SECS_SAVED
    ls "$OUT/$vname-server.jsa" "$OUT/$vname-generator.jsa" > /dev/null
  fi
done

for round in $(seq "$ROUNDS"); do
  n=${#VARIANTS[@]}
  for i in $(seq 0 $((n - 1))); do
    spec=${VARIANTS[$(( (i + round) % n ))]}
    vname=${spec%%=*}
    # shellcheck disable=SC2046
    server_run "$round-$vname" $(opts_of "$spec" server)
    # shellcheck disable=SC2046
    generator_run "$round-$vname" $(opts_of "$spec" generator)
  done
done

python3 - "$OUT" "$ROUNDS" "${VARIANTS[@]}" <<'PY' | tee "$OUT/results.txt"
import csv, json, statistics, sys
from datetime import datetime
out, rounds, variants = sys.argv[1], int(sys.argv[2]), [v.split("=", 1)[0] for v in sys.argv[3:]]

def climb(points):
    """points: (seconds from launch, cumulative ok). The first reply's time, t95 and the steady rate."""
    first = next(t for t, ok in points if ok > 0)
    windows = []  # (end, rate) of each 1 s window ending at each point
    for j, (t, ok) in enumerate(points):
        back = [p for p in points[:j] if t - p[0] >= 0.999]
        if back:
            t0, ok0 = back[-1]
            windows.append((t, (ok - ok0) / (t - t0)))
    tail = [r for t, r in windows if t >= points[0][0] + (points[-1][0] - points[0][0]) * 2 / 3]
    steady = statistics.median(tail)
    t95 = next(t for t, r in windows if r >= 0.95 * steady)
    return first, t95, steady

rows = {}
for r in range(1, rounds + 1):
    for v in variants:
        name = f"{r}-{v}"
        lines = open(f"{out}/{name}.client.out").read().split("\n")
        launch = float(next(l.split()[1] for l in lines if l.startswith("launch")))
        listening = float(next(l.split()[3] for l in lines if l.startswith("launch")))
        pts = [(float(l.split()[1]) - launch, int(l.split()[2])) for l in lines if l.startswith("interval")]
        first, t95, steady = climb(pts)
        rows.setdefault(("server", v), []).append((listening - launch, first, t95, steady))
        launch = float(open(f"{out}/{name}.launch").read())
        summary = json.load(open(f"{out}/{name}.json"))
        assert summary["bad"] == 0 and summary["errors"] == 0, name
        started = datetime.fromisoformat(json.load(open(f"{out}/{name}.report/summary.json"))["run"]["started_utc"]
                                         .replace("Z", "+00:00")).timestamp()
        ok, pts = 0, [(started - launch, 0)]
        for row in csv.DictReader(open(f"{out}/{name}.report/intervals.csv")):
            ok += int(row["ok"])
            pts.append((started - launch + float(row["time_s"]), ok))
        first, t95, steady = climb(pts)
        rows.setdefault(("generator", v), []).append((started - launch, first, t95, steady))
        for side in ("server", "generator"):
            l, f, t, s = rows[(side, v)][-1]
            print(f"round {r} {side} {v}: listening {l:.2f} s, first reply {f:.2f} s, t95 {t:.2f} s, steady {s:.0f}/s")

def med(xs):
    return f"{statistics.median(xs):.2f} ({min(xs):.2f}-{max(xs):.2f})"

print("\n# median (range) over rounds, seconds from launch")
for (side, v), rs in rows.items():
    print(f"{side} {v}: listening {med([x[0] for x in rs])}, first reply {med([x[1] for x in rs])}, "
          f"t95 {med([x[2] for x in rs])}, steady {statistics.median([x[3] for x in rs]):.0f}/s")
PY
