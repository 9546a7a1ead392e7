#!/usr/bin/env bash
# Two load-generator jars (say, before and after a change) against the same echo-server process, rounds
# interleaved: the server has one I/O thread on epoll, each generator one I/O thread. Shapes: echo at 100
# connections x 16 and x 1 in flight, and 1 x 1, 64 B bodies (5 s after a 2 s warmup), and crr with 10 workers (5 s).
# Then each generator's rpc command against its own embedded server (both ends of that jar's RPC), 200,000
# calls by 50 clients. Prints one line per round, jar and shape; take the median and range over the rounds.
# SHAPES="100x1 1x1" runs those echo shapes only.
#
# usage: bench/before-after-generator.sh BEFORE_JAR AFTER_JAR SERVER_JAR [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
BEFORE=$1
AFTER=$2
SERVER=$3
ROUNDS=${4:-3}
OUT=target/bench
mkdir -p "$OUT"
java -jar "$SERVER" --tcp-port 0 --udp-port -1 --rpc-port -1 --metrics-port -1 --io-threads 1 --transport epoll \
  --idle-timeout 10m > "$OUT/generators-server.out" 2> "$OUT/generators-server.err" &
PID=$!
trap 'kill $PID 2>/dev/null; wait 2>/dev/null || true' EXIT
for _ in $(seq 100); do grep -q "listening tcp" "$OUT/generators-server.out" 2>/dev/null && break; sleep 0.1; done
TARGET=127.0.0.1:$(sed -n 's/^listening tcp .*:\([0-9]*\)$/\1/p' "$OUT/generators-server.out")
qps() { python3 -c 'import json,sys; d=json.load(sys.stdin); print("qps %.0f bad %d errors %d" % (d["qps"], d["bad"], d["errors"]))'; }
for round in $(seq "$ROUNDS"); do
  for which in before after; do
    jar=$BEFORE; [ $which = after ] && jar=$AFTER
    for shape in ${SHAPES:-100x16 100x1 1x1}; do
      echo "round $round $which echo ${shape}x64: $(java -jar "$jar" echo --target "$TARGET" --connections "${shape%x*}" \
        --pipeline "${shape#*x}" --size 64 --duration 5s --warmup 2s --json 2>/dev/null | qps)"
    done
    [ -n "${SHAPES:-}" ] && continue
    echo "round $round $which crr 10: $(java -jar "$jar" crr --target "$TARGET" --concurrency 10 --duration 5s --json \
      2>/dev/null | qps)"
    echo "round $round $which rpc 50x1 (embedded): $(java -jar "$jar" rpc --clients 50 --requests 200000 --json 2>/dev/null \
      | python3 -c 'import json,sys; d=json.load(sys.stdin); print("qps %.0f ok %d errors %d" % (d["qps"], d["received_ok"], d["errors"]))')"
  done
done
