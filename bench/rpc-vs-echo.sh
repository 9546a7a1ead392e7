#!/usr/bin/env bash
# RPC cost against raw frames: one echo-server process (one I/O thread) serves both ports; 50 clients call
# bench.update (protobuf envelope + bench message, decoded, updated, encoded, every answer verified) and, as the
# baseline, 50 connections echo raw 32-byte frames, both closed loop with K requests in flight per connection.
# Measured at steady state: each RPC run warms up on half its calls (1,200,000 x K in all), so the client's JIT has
# settled before timing starts, as the echo run's 3 s warmup does. RPC and echo alternate round by round; the
# summary gives the median and range of each rate and of the ratio rpc/echo within a round.
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
java -jar echo-server/target/echo-server.jar --tcp-port 0 --udp-port -1 --rpc-port 0 --metrics-port 0 --io-threads 1 \
  --idle-timeout 10m > "$OUT/rpc-server.out" 2> "$OUT/rpc-server.err" &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true' EXIT
for _ in $(seq 100); do grep -q "listening metrics" "$OUT/rpc-server.out" 2>/dev/null && break; sleep 0.1; done
TCP=$(sed -n 's/^listening tcp //p' "$OUT/rpc-server.out")
RPC=$(sed -n 's/^listening rpc //p' "$OUT/rpc-server.out")
LG="java -jar load-generator/target/load-generator.jar"
qps() { python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["bad"] == 0 and d["errors"] == 0, d; print(round(d["qps"]))'; }
rpc() {
  $LG rpc --target "$RPC" --clients 50 --requests $((1200000 * $1)) --warmup $((600000 * $1)) --in-flight "$1" \
    --json 2>/dev/null | qps
}
echo_() { $LG echo --target "$TCP" --connections 50 --pipeline "$1" --size 32 --warmup 3s --duration 8s --json 2>/dev/null | qps; }
echo "# $(date -u +%FT%TZ) commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(nproc) cores," \
  "one echo-server (--io-threads 1), 50 clients" | tee "$OUT/rpc-vs-echo.txt"
for round in $(seq "$ROUNDS"); do
  for K in "${DEPTHS[@]}"; do
    if [ $((round % 2)) -eq 1 ]; then order=(rpc echo_); else order=(echo_ rpc); fi
    for who in "${order[@]}"; do
      echo "$round 50x${K} ${who%_} $($who "$K")" | tee -a "$OUT/rpc-vs-echo.txt"
    done
  done
done
echo
python3 bench/ratio-summary.py --ratio rpc/echo "$OUT/rpc-vs-echo.txt" | tee -a "$OUT/rpc-vs-echo.txt"
