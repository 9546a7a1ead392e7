#!/usr/bin/env bash
# The load generator against an independent native epoll client (native-echo-client/echo_client.c), both driving
# the C epoll echo server (native-echo-server/echo_server.c), which is faster than either: the generator is the
# thing measured. Same connections, depth and body size, closed loop, one client thread each (IO_THREADS=2 gives
# the generator two; IO=io_uring runs it on io_uring, where the default, auto, is epoll). Clients are interleaved
# round by round; the summary gives the median and range of each rate and of the ratio within a round.
#
# usage: bench/compare-native-client.sh [ROUNDS] [SECONDS] [CONNECTIONS:DEPTH:SIZE ...]
# Needs the built jars (mvn -B -ntp -DskipTests package) and gcc. Writes target/bench/native-client.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-3}
SECS=${2:-5}
shift 2 || shift $# || true
CASES=("$@")
[ ${#CASES[@]} -gt 0 ] || CASES=("1:1:64" "100:1:64" "100:16:64" "100:16:1024")
IO_THREADS=${IO_THREADS:-1}
IO=${IO:-auto}
OUT=target/bench
mkdir -p "$OUT"
gcc -O2 -Wall -o "$OUT/echo_client" bench/native-echo-client/echo_client.c
gcc -O2 -Wall -o "$OUT/echo_server" bench/native-echo-server/echo_server.c

"$OUT/echo_server" 0 > "$OUT/c-server.out" &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true' EXIT
for _ in $(seq 100); do grep -q "listening tcp" "$OUT/c-server.out" 2>/dev/null && break; sleep 0.1; done
PORT=$(sed -n 's/^listening tcp .*:\([0-9]*\)$/\1/p' "$OUT/c-server.out")
echo "# $(date -u +%FT%TZ) commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(nproc) cores," \
  "C epoll server pid $SERVER on 127.0.0.1:$PORT, generator --io $IO --io-threads $IO_THREADS, ${SECS}s per run" \
  | tee "$OUT/native-client.txt"

native() { "$OUT/echo_client" 127.0.0.1 "$PORT" "$1" "$2" "$3" "$SECS" | sed 's/.*= \([0-9]*\) replies.*/\1/'; }
ricochet() {
  java -jar load-generator/target/load-generator.jar echo --target "127.0.0.1:$PORT" --io "$IO" --io-threads "$IO_THREADS" \
    --connections "$1" --pipeline "$2" --size "$3" --warmup 3s --duration "${SECS}s" --json 2>/dev/null \
    | python3 -c 'import json,sys; s=json.load(sys.stdin); assert s["bad"] == 0 and s["errors"] == 0, s; print(round(s["qps"]))'
}
for round in $(seq "$ROUNDS"); do
  for c in "${CASES[@]}"; do
    IFS=: read -r CONN DEPTH SIZE <<< "$c"
    # Alternate which client goes first.
    if [ $((round % 2)) -eq 1 ]; then order=(native ricochet); else order=(ricochet native); fi
    for who in "${order[@]}"; do
      echo "$round $c $who $($who "$CONN" "$DEPTH" "$SIZE")" | tee -a "$OUT/native-client.txt"
    done
  done
done
echo
python3 bench/ratio-summary.py --ratio ricochet/native "$OUT/native-client.txt" | tee -a "$OUT/native-client.txt"
