#!/usr/bin/env bash
# RPC cost against raw frames, and the issue's RPC target: one echo-server process (one I/O thread) serves
# both ports; 50 clients call bench.update (protobuf envelope + bench message, decoded, updated, encoded)
# and, as the baseline in the same run, 50 connections echo raw 32-byte frames, both closed loop with
# K requests in flight per connection. Prints QPS, p99 and the ratio rpc/echo per K.
#
# usage: bench/rpc-vs-echo.sh [REQUESTS] [IN_FLIGHT ...]
# Needs: the built jars (mvn -B -ntp -DskipTests package).
set -euo pipefail
cd "$(dirname "$0")/.."
REQUESTS=${1:-1000000}
shift || true
DEPTHS=("$@")
if [ ${#DEPTHS[@]} -eq 0 ]; then
  DEPTHS=(1 2 4)
fi
OUT=target/bench
mkdir -p "$OUT"
java -jar echo-server/target/echo-server.jar --tcp-port 0 --udp-port -1 --rpc-port 0 --metrics-port 0 --io-threads 1 \
  --idle-timeout 10m > "$OUT/rpc-server.out" 2> "$OUT/rpc-server.err" &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true' EXIT
for _ in $(seq 100); do grep -q "listening metrics" "$OUT/rpc-server.out" 2>/dev/null && break; sleep 0.1; done
TCP=$(sed -n 's/^listening tcp //p' "$OUT/rpc-server.out")
RPC=$(sed -n 's/^listening rpc //p' "$OUT/rpc-server.out")
METRICS=$(sed -n 's/^listening metrics //p' "$OUT/rpc-server.out")
LG="java -jar load-generator/target/load-generator.jar"
json() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }

printf '%-10s %12s %10s %12s %10s %8s\n' "in-flight" "rpc q/s" "rpc p99" "echo q/s" "echo p99" "ratio"
for K in "${DEPTHS[@]}"; do
  R=$($LG rpc --target "$RPC" --scrape "$METRICS" --clients 50 --requests "$REQUESTS" --in-flight "$K" \
      --warmup $((REQUESTS / 3)) --json 2>/dev/null)
  RQ=$(echo "$R" | json 'round(d["qps"])')
  RP=$(echo "$R" | json 'd["latency_us"]["p99"]')
  E=$($LG echo --target "$TCP" --connections 50 --pipeline "$K" --size 32 --warmup 3s --duration 8s --json 2>/dev/null)
  EQ=$(echo "$E" | json 'round(d["qps"])')
  EP=$(echo "$E" | json 'd["latency_us"]["p99"]')
  printf '%-10s %12s %9sus %12s %9sus %8s\n' "$K" "$RQ" "$RP" "$EQ" "$EP" "$(python3 -c "print(f'{$RQ / $EQ:.2f}')")"
done
