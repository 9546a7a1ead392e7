#!/usr/bin/env bash
# QUIC under loss (issue 16): the echo over QUIC through a relay process (bench/lossy-relay/LossyRelay.java) that drops
# each datagram, either way, with probability 0, 1% and 5%. One echo-server (--io-threads 1), the generator
# (--io-threads 1, 10 connections x 16 in flight x 64 B, every reply verified), rounds interleaved over the loss levels.
# Prints goodput (verified replies/s), p99 and failures per level, and the relay's own drop counts.
#
# usage: bench/quic-loss.sh [ROUNDS] [SECONDS]
# Needs the built jars (mvn -B -ntp -DskipTests package) and openssl. Writes target/bench/quic-loss/.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-3}
SECS=${2:-5}
OUT=target/bench/quic-loss
rm -rf "$OUT"; mkdir -p "$OUT"
LG="java -jar load-generator/target/load-generator.jar"
SERVER=
RELAY=
trap 'kill $SERVER $RELAY 2>/dev/null || true; wait 2>/dev/null || true' EXIT
. bench/quic-echo-server.sh
start_quic_echo_server "$OUT" --idle-timeout 10m
QUIC_PORT=${QUIC##*:}

run() { # LOSS ROUND -> "goodput p99_us failures"; the relay's counts appended to $OUT/relay.txt
  java bench/lossy-relay/LossyRelay.java "$QUIC_PORT" "$1" > "$OUT/relay.out" 2>&1 &
  RELAY=$!
  for _ in $(seq 300); do grep -q "listening udp" "$OUT/relay.out" 2>/dev/null && break; sleep 0.1; done
  local port
  port=$(sed -n 's/^listening udp .*:\([0-9]*\)$/\1/p' "$OUT/relay.out")
  $LG echo --transport quic --insecure --target "127.0.0.1:$port" --io-threads 1 --connections 10 --pipeline 16 \
    --size 64 --timeout 10s --warmup 2s --duration "${SECS}s" --json 2> "$OUT/last.err" > "$OUT/run-$1-r$2.json" || true
  kill "$RELAY"; wait "$RELAY" 2>/dev/null || true; RELAY=
  echo "# round $2 loss $1 $(grep '^relay:' "$OUT/relay.out")" >> "$OUT/relay.txt"
  python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); print(round(s["qps"]), s["latency_us"]["p99"], s["bad"] + s["errors"] + s["connect_failures"])' "$OUT/run-$1-r$2.json"
}
RUNS="$OUT/runs.txt"
for r in $(seq "$ROUNDS"); do
  for loss in 0 0.01 0.05; do
    read -r QPS P99 FAIL <<< "$(run $loss "$r")"
    echo "$r quic-10x16x64 loss-$loss $QPS" | tee -a "$RUNS"
    echo "# round $r loss $loss p99 ${P99}us bad+errors+connect_failures $FAIL" >> "$RUNS"
  done
done
{
  echo "# $(date -u +%FT%TZ) commit $(git rev-parse --short HEAD), $(nproc) cores, echo-server --io-threads 1, generator --io-threads 1, ${SECS}s runs"
  python3 bench/ratio-summary.py --ratio loss-0.01/loss-0 --ratio loss-0.05/loss-0 "$RUNS"
  grep "^# round" "$RUNS"
  cat "$OUT/relay.txt"
} | tee "$OUT/table.txt"
