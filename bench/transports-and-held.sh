#!/usr/bin/env bash
# End to end per transport: the echo server forced to nio, epoll and io_uring in turn (its own JVM, one I/O
# thread), loaded by the generator at 10 connections x pipeline 16 x 64 B. Then the most connections one
# generator process holds against one server process here, with its connect rate.
# usage: bench/transports-and-held.sh [SECONDS] [HELD_CONNECTIONS]
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${1:-5}
HELD=${2:-19000}
OUT=target/bench
mkdir -p "$OUT"
LG="java -jar load-generator/target/load-generator.jar"
start_server() { # transport -> sets PID, PORT, MPORT
  java -jar echo-server/target/echo-server.jar --tcp-port 0 --udp-port -1 --metrics-port 0 --io-threads 1 \
    --idle-timeout 10m --transport "$1" > "$OUT/t.out" 2> "$OUT/t.err" &
  PID=$!
  for _ in $(seq 100); do grep -q "listening metrics" "$OUT/t.out" 2>/dev/null && break; sleep 0.1; done
  PORT=$(sed -n 's/^listening tcp .*:\([0-9]*\)$/\1/p' "$OUT/t.out")
  MPORT=$(sed -n 's/^listening metrics http:\/\/.*:\([0-9]*\)\/metrics$/\1/p' "$OUT/t.out")
}
printf '%-9s %12s %8s %8s %8s %8s\n' transport qps p50_us p99_us srv_cpu srv_rss_MB
for t in nio epoll io_uring; do
  start_server "$t"
  $LG echo --target "127.0.0.1:$PORT" --io-threads 1 --connections 10 --pipeline 16 --warmup 2s --duration "${SECS}s" > /dev/null 2>&1 || true
  $LG echo --target "127.0.0.1:$PORT" --scrape "http://127.0.0.1:$MPORT/metrics" --io-threads 1 --connections 10 \
    --pipeline 16 --warmup 2s --duration "${SECS}s" --json 2>/dev/null | python3 -c "
import json,sys; s=json.load(sys.stdin); l=s['latency_us']; v=s['server']
print('%-9s %12.0f %8d %8d %7.1f%% %8.1f' % ('$t', s['qps'], l['p50'], l['p99'], 100*v['cpu_max'], v['rss_max_bytes']/1048576))"
  kill "$PID"; wait "$PID" 2>/dev/null || true
done
echo "held connections: $HELD from one generator process to one server process"
start_server auto
$LG massive --target "127.0.0.1:$PORT" --scrape "http://127.0.0.1:$MPORT/metrics" --connections "$HELD" \
  --connect-rate 4000 --warmup 8s --per-connection-rate 0.1/s --duration "${SECS}s" --timeout 10s 2>/dev/null | grep -v '^\[' || true
kill "$PID"; wait "$PID" 2>/dev/null || true
