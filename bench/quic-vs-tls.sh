#!/usr/bin/env bash
# QUIC against TCP+TLS (issue 16): one echo-server process (--io-threads 1) serving both its TLS port and its QUIC
# port with the same certificate, the load generator (--io-threads 1) running the same echo shape over each, rounds
# interleaved. Both are TLS 1.3 on BoringSSL (the QUIC native's, and netty-tcnative's). Prints each transport's median
# (range) QPS and the QUIC/TLS ratio taken round by round, per shape.
#
# usage: bench/quic-vs-tls.sh [ROUNDS] [SECONDS] [CONNECTIONS:DEPTH:SIZE ...]   (default shapes 100:16:64 100:1:64)
# Needs the built jars (mvn -B -ntp -DskipTests package) and openssl. Writes target/bench/quic-vs-tls/.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-3}
SECS=${2:-5}
shift $(( $# < 2 ? $# : 2 ))
SHAPES=("$@")
[ ${#SHAPES[@]} -eq 0 ] && SHAPES=(100:16:64 100:1:64)
OUT=target/bench/quic-vs-tls
rm -rf "$OUT"; mkdir -p "$OUT"
LG="java -jar load-generator/target/load-generator.jar"

SERVER=
trap 'kill $SERVER 2>/dev/null || true; wait 2>/dev/null || true' EXIT
. bench/quic-echo-server.sh
start_quic_echo_server "$OUT" --idle-timeout 10m --tls-port 0
echo "echo-server pid $SERVER: tls $TLS, quic $QUIC" >&2

run() { # quic|tls CONNS DEPTH SIZE -> qps p99_us bad+errors
  local flags=(--tls --target "$TLS")
  [ "$1" = quic ] && flags=(--transport quic --target "$QUIC")
  $LG echo "${flags[@]}" --insecure --io-threads 1 --connections "$2" --pipeline "$3" --size "$4" \
    --connect-rate 2000 --warmup 2s --duration "${SECS}s" --json 2> "$OUT/last.err" \
    | python3 -c 'import json,sys; s=json.load(sys.stdin); print(round(s["qps"]), s["latency_us"]["p99"], s["bad"] + s["errors"])'
}
# Warm both paths' JIT before measuring.
run tls 10 4 64 > /dev/null; run quic 10 4 64 > /dev/null
RUNS="$OUT/runs.txt"
for r in $(seq "$ROUNDS"); do
  for shape in "${SHAPES[@]}"; do
    IFS=: read -r C D S <<< "$shape"
    for t in tls quic; do
      read -r QPS P99 BAD <<< "$(run $t "$C" "$D" "$S")"
      echo "$r ${C}x${D}x${S} $t $QPS" | tee -a "$RUNS"
      echo "# round $r ${C}x${D}x${S} $t p99 ${P99}us bad+errors $BAD" >> "$RUNS"
    done
  done
done
{
  echo "# $(date -u +%FT%TZ) commit $(git rev-parse --short HEAD), $(nproc) cores, echo-server --io-threads 1, generator --io-threads 1, ${SECS}s runs"
  python3 bench/ratio-summary.py --ratio quic/tls "$RUNS"
  grep "^# round" "$RUNS"
} | tee "$OUT/table.txt"
