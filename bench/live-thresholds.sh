#!/usr/bin/env bash
# What judging thresholds live costs the generator: one jar, against the same echo-server process, echo at
# 100 connections x 16 in flight x 64 B (8 s after a 2 s warmup), without thresholds and with ten of them, six
# windowed (5 s and 1 s; a 30 s window would not fit the run), rounds interleaved. The thresholds all hold, so both runs go to their end. Prints
# "ROUND echo-100x16 CONTENDER QPS" lines for bench/ratio-summary.py --ratio live/none.
#
# usage: bench/live-thresholds.sh JAR SERVER_JAR [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
JAR=$1
SERVER=$2
ROUNDS=${3:-5}
OUT=target/bench
mkdir -p "$OUT"
java -jar "$SERVER" --tcp-port 0 --udp-port -1 --rpc-port -1 --metrics-port -1 --io-threads 1 --transport epoll \
  --idle-timeout 10m > "$OUT/live-server.out" 2> "$OUT/live-server.err" &
PID=$!
trap 'kill $PID 2>/dev/null; wait 2>/dev/null || true' EXIT
for _ in $(seq 100); do grep -q "listening tcp" "$OUT/live-server.out" 2>/dev/null && break; sleep 0.1; done
TARGET=127.0.0.1:$(sed -n 's/^listening tcp .*:\([0-9]*\)$/\1/p' "$OUT/live-server.out")
THRESHOLDS=(--threshold 'p99[5s]<10s' --threshold 'p999[5s]<10s' --threshold 'max[1s]<60s' --threshold 'errors[5s]<1G'
  --threshold 'bad[1s]==0;abort' --threshold 'qps[5s]>1' --threshold 'p50<10s' --threshold 'errors==0'
  --threshold 'error_rate<1%' --threshold 'requests>0')
run() {
  java -jar "$JAR" echo --target "$TARGET" --connections 100 --pipeline 16 --size 64 --duration 8s --warmup 2s --json \
    "$@" 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); print("%.0f" % d["qps"])'
}
for round in $(seq "$ROUNDS"); do
  echo "$round echo-100x16 none $(run)"
  echo "$round echo-100x16 live $(run "${THRESHOLDS[@]}")"
done
