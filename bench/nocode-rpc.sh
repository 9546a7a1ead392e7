#!/usr/bin/env bash
# rpc with no code against the built-in rpc command: both call the echo server's bench.update, 50 clients, K in flight
# each, every answer checked. The no-code run builds its requests from JSON with placeholders (the client id and the
# sequence) and checks each answer against a JSON subset naming them, with the types from ricochet_bench.protoset as
# the echo-service build writes it; the built-in run checks every field by code. Each has an echo server of its own,
# one I/O thread; rounds interleave them, and bench/ratio-summary.py gives the median and range of nocode/builtin.
#
# usage: bench/nocode-rpc.sh [ROUNDS] [IN_FLIGHT ...]
# Needs the built jars (mvn -B -ntp -DskipTests package). Writes target/bench/nocode-rpc.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-5}
shift || true
DEPTHS=("$@")
[ ${#DEPTHS[@]} -gt 0 ] || DEPTHS=(1 4)
OUT=target/bench
mkdir -p "$OUT"
PROTOSET=echo-service/target/generated-resources/protobuf/descriptor-sets/ricochet_bench.protoset
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null || true' EXIT
start() { # name: an echo server with one I/O thread serving RPC; waits until it listens
  java -jar echo-server/target/echo-server.jar --tcp-port 0 --udp-port -1 --rpc-port 0 --metrics-port -1 --io-threads 1 \
    --idle-timeout 10m > "$OUT/$1.out" 2> "$OUT/$1.err" &
  PIDS+=($!)
  for _ in $(seq 100); do grep -q "listening rpc" "$OUT/$1.out" 2>/dev/null && break; sleep 0.1; done
  grep -q "listening rpc" "$OUT/$1.out" || { echo "$1 did not start: $(cat "$OUT/$1.err")" >&2; exit 1; }
}
start builtin-server
start nocode-server
BUILTIN=$(sed -n 's/^listening rpc //p' "$OUT/builtin-server.out")
NOCODE=$(sed -n 's/^listening rpc //p' "$OUT/nocode-server.out")
LG="java -jar load-generator/target/load-generator.jar"
# 32 bytes of body, as the built-in command's default --size.
BODY=$(head -c 32 /dev/zero | tr '\0' 'b' | base64)
# EXPECT=subset (the default): each answer's client id, sequence and body checked against the request's, by
# placeholders; EXPECT=body: its body only, a constant subset; EXPECT=none: the answer only parsed, its status OK.
case "${EXPECT:-subset}" in
  subset) EXPECT=(--expect "{\"client_id\": \"{{conn}}\", \"sequence\": \"{{seq}}\", \"body\": \"$BODY\"}") ;;
  body) EXPECT=(--expect "{\"body\": \"$BODY\"}") ;;
  none) EXPECT=() ;;
  *) echo "EXPECT: $EXPECT (expected: subset, body or none)" >&2; exit 2 ;;
esac
qps() { python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["bad"] == 0 and d["errors"] == 0, d; print(round(d["qps"]))'; }
builtin() { # in-flight
  $LG rpc --target "$BUILTIN" --clients 50 --requests $((400000 * $1)) --warmup $((200000 * $1)) --in-flight "$1" \
    --json 2>/dev/null | qps
}
nocode() { # in-flight
  $LG rpc --target "$NOCODE" --clients 50 --requests $((400000 * $1)) --warmup $((200000 * $1)) --in-flight "$1" \
    --proto "$PROTOSET" --method bench.update --request-type ricochet.bench.BenchMessage \
    --response-type ricochet.bench.BenchMessage \
    --data "{\"client_id\": \"{{conn}}\", \"sequence\": \"{{seq}}\", \"body\": \"$BODY\"}" \
    "${EXPECT[@]}" --json 2>/dev/null | qps
}
echo "# $(date -u +%FT%TZ) commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(nproc) cores," \
  "builtin server $BUILTIN, nocode server $NOCODE, one I/O thread each, 50 clients, EXPECT=${EXPECT[*]:-none}" \
  | tee "$OUT/nocode-rpc.txt"
for round in $(seq "$ROUNDS"); do
  for k in "${DEPTHS[@]}"; do
    if [ $((round % 2)) -eq 1 ]; then order=(builtin nocode); else order=(nocode builtin); fi
    for who in "${order[@]}"; do
      echo "$round 50x$k $who $($who "$k")" | tee -a "$OUT/nocode-rpc.txt"
    done
  done
done
echo
python3 bench/ratio-summary.py --ratio nocode/builtin "$OUT/nocode-rpc.txt" | tee -a "$OUT/nocode-rpc.txt"
