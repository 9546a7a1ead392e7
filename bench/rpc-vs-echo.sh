#!/usr/bin/env bash
# RPC cost against raw frames: 50 clients call bench.update (protobuf envelope + bench message, decoded, updated,
# encoded, every answer verified) and, as the baseline, 50 connections echo raw 32-byte frames, both closed loop with K
# requests in flight per connection. Each runs against an echo-server process of its own (one I/O thread), serving
# only that workload: one server serving both cost RPC 3% at one call in flight and 5% at four in one run, most likely
# its JIT compiling the shared framing code for both (docs/performance.md). Measured at steady state: each RPC run warms up on half its calls (1,200,000 x K in all),
# in five rounds, so the client's JIT has settled before timing starts, as the echo run's 3 s warmup does for its
# smaller code. The contenders take turns round by round; the summary gives the median and range of each rate and of
# the ratio rpc/echo within a round.
# With BEFORE_JAR=path/to/echo-server.jar, a server from that jar runs too, and each round makes the same RPC calls to
# it as "before": rpc/before measures one server change on its own, with the same generator.
#
# usage: bench/rpc-vs-echo.sh [ROUNDS] [IN_FLIGHT ...]
# Needs the built jars (mvn -B -ntp -DskipTests package). Writes target/bench/rpc-vs-echo.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-3}
shift || true
DEPTHS=("$@")
[ ${#DEPTHS[@]} -gt 0 ] || DEPTHS=(1 4)
OUT=target/bench
mkdir -p "$OUT"
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null || true' EXIT
start() { # jar name: an echo server with one I/O thread, serving raw frames and RPC; waits until it listens
  java -jar "$1" --tcp-port 0 --udp-port -1 --rpc-port 0 --metrics-port 0 --io-threads 1 --idle-timeout 10m \
    > "$OUT/$2.out" 2> "$OUT/$2.err" &
  PIDS+=($!)
  # Both lines: a server may print its metrics port before its RPC port.
  for _ in $(seq 100); do
    grep -q "listening metrics" "$OUT/$2.out" 2>/dev/null && grep -q "listening rpc" "$OUT/$2.out" && break
    sleep 0.1
  done
  grep -q "listening rpc" "$OUT/$2.out" || { echo "$2 did not start: $(cat "$OUT/$2.err")" >&2; exit 1; }
}
start echo-server/target/echo-server.jar rpc-server
start echo-server/target/echo-server.jar echo-server
RPC=$(sed -n 's/^listening rpc //p' "$OUT/rpc-server.out")
TCP=$(sed -n 's/^listening tcp //p' "$OUT/echo-server.out")
CONTENDERS=(rpc echo_)
RATIOS=(--ratio rpc/echo)
if [ -n "${BEFORE_JAR:-}" ]; then
  start "$BEFORE_JAR" rpc-server-before
  BEFORE_RPC=$(sed -n 's/^listening rpc //p' "$OUT/rpc-server-before.out")
  CONTENDERS+=(before)
  RATIOS+=(--ratio rpc/before)
fi
LG="java -jar load-generator/target/load-generator.jar"
qps() { python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["bad"] == 0 and d["errors"] == 0, d; print(round(d["qps"]))'; }
rpc_at() { # target in-flight
  $LG rpc --target "$1" --clients 50 --requests $((1200000 * $2)) --warmup $((600000 * $2)) --in-flight "$2" \
    --json 2>/dev/null | qps
}
rpc() { rpc_at "$RPC" "$1"; }
before() { rpc_at "$BEFORE_RPC" "$1"; }
echo_() { $LG echo --target "$TCP" --connections 50 --pipeline "$1" --size 32 --warmup 3s --duration 8s --json 2>/dev/null | qps; }
echo "# $(date -u +%FT%TZ) commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(nproc) cores," \
  "an echo-server (--io-threads 1) for each workload, 50 clients${BEFORE_JAR:+, before: $BEFORE_JAR}" | tee "$OUT/rpc-vs-echo.txt"
for round in $(seq "$ROUNDS"); do
  for K in "${DEPTHS[@]}"; do
    # Rotate the order each round, so no contender always runs first.
    for i in "${!CONTENDERS[@]}"; do
      who=${CONTENDERS[$(( (i + round) % ${#CONTENDERS[@]} ))]}
      echo "$round 50x${K} ${who%_} $($who "$K")" | tee -a "$OUT/rpc-vs-echo.txt"
    done
  done
done
echo
python3 bench/ratio-summary.py "${RATIOS[@]}" "$OUT/rpc-vs-echo.txt" | tee -a "$OUT/rpc-vs-echo.txt"
