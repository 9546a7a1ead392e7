#!/usr/bin/env bash
# The reliability issue's hostile peers (faults 2-5), before and after: each attack on a fresh process, all on
# loopback. Prints one line per jar and attack; docs/perf/history.md ("Hostile peers, second round") has the table.
#
#   2  load-generator rpc against a server that answers pings but no call (bench/hostile/SilentRpcServer.java, run on
#      this tree's echo-server jar for both sides, since it is written against this tree's API): how long a run of 20
#      requests takes, and what a SIGTERM'd run at the defaults says it sent
#   3  one 1,200-byte QUIC Initial, never acknowledged, and the same Initial alone in a 270-byte datagram: bytes back over 40 s
#      (bench/hostile/QuicAmplification.java)
#   4  a flood of replayed Noise first messages: the plain TCP port's round-trip p99 meanwhile, and the server's CPU
#      (bench/noise-flood.sh, which interleaves its own rounds)
#   5  140 idle sockets on the metrics port: how many /health requests are answered over 20 s
#      (bench/hostile/IdleMetricsSockets.java)
#
# usage: bench/hostile-peers-2.sh BEFORE_DIR [AFTER_DIR]
#   each DIR holds echo-server.jar and load-generator.jar; AFTER_DIR defaults to this tree's built jars
#   (mvn -B -ntp -DskipTests -Djmh.skip package). To build the "before" ones of the table:
#     git worktree add /tmp/before 8a01ac8 && (cd /tmp/before && mvn -B -ntp -q -DskipTests -Djmh.skip package)
#     mkdir -p /tmp/before-jars && cp /tmp/before/*/target/{echo-server,load-generator}.jar /tmp/before-jars/
#   Fault 2 was fixed before the others, by the workloads issue's engine: its "before" generator is commit cde6a9a's.
set -euo pipefail
cd "$(dirname "$0")/.."
BEFORE=${1:?usage: bench/hostile-peers-2.sh BEFORE_DIR [AFTER_DIR]}
AFTER=${2:-}
OUT=target/bench/hostile-2
mkdir -p "$OUT"

PID=
stop() { [ -z "$PID" ] || { kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; PID=; }; }
trap stop EXIT
# await_line FILE PATTERN: up to 20 s for a line to appear.
await_line() { for _ in $(seq 200); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done; echo "no '$2' in $1" >&2; return 1; }
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(' '.join(f'{k}={d.get(k)}' for k in sys.argv[2:]))" "$@"; }

for side in before after; do
  if [ "$side" = before ]; then es=$BEFORE/echo-server.jar lg=$BEFORE/load-generator.jar
  elif [ -n "$AFTER" ]; then es=$AFTER/echo-server.jar lg=$AFTER/load-generator.jar
  else es=echo-server/target/echo-server.jar lg=load-generator/target/load-generator.jar
  fi
  echo "== $side: $es, $lg"

  # Fault 2: the silent RPC server is the same program for both generators, written against this tree's API.
  java -cp echo-server/target/echo-server.jar bench/hostile/SilentRpcServer.java > "$OUT/silent.out" 2> "$OUT/silent.err" &
  PID=$!
  await_line "$OUT/silent.out" "listening rpc"
  rpc=$(sed -n 's/^listening rpc \(.*\)$/\1/p' "$OUT/silent.out")
  start=$(date +%s.%N)
  java -jar "$lg" rpc --target "$rpc" --clients 2 --requests 20 --timeout 2s --json > "$OUT/rpc20.json" 2> "$OUT/rpc20.err" || true
  echo "fault 2, rpc --clients 2 --requests 20 --timeout 2s: $(printf '%.1f' "$(echo "$(date +%s.%N) - $start" | bc)") s wall, $(json "$OUT/rpc20.json" total_time_s requests errors first_error)"
  java -jar "$lg" rpc --target "$rpc" --json > "$OUT/rpc.json" 2> "$OUT/rpc.err" &
  gen=$!
  for i in $(seq 40); do sleep 1; kill -0 "$gen" 2>/dev/null || break; done
  if kill -TERM "$gen" 2>/dev/null; then how="SIGTERM at 40 s"; else how="ended by itself"; fi
  wait "$gen" || true
  echo "fault 2, rpc at the defaults: $how, $(json "$OUT/rpc.json" total_time_s requests received errors)"
  stop

  # Fault 3, with the small certificate that left quiche room to pass its limit.
  echo "fault 3: $(SECONDS_EACH=40 bench/quic-amplification.sh "$es" | grep '^probe=' | tr '\n' ' ')"

  # Fault 5.
  java -Xmx512m -jar "$es" --tcp-port 0 --udp-port -1 --rpc-port -1 --metrics-port 0 > "$OUT/es.out" 2> "$OUT/es.err" &
  PID=$!
  await_line "$OUT/es.out" "listening metrics"
  metrics=$(sed -n 's#^listening metrics http://\([^/]*\)/.*#\1#p' "$OUT/es.out")
  echo "fault 5, 140 idle sockets on the metrics port, 20 s: $(java bench/hostile/IdleMetricsSockets.java "$metrics" 140 20)"
  stop
done
echo "fault 4: bench/noise-flood.sh BEFORE/echo-server.jar AFTER/echo-server.jar 5 10 | bench/noise-flood-summary.py"
