#!/usr/bin/env bash
# Measures the load generator against an independent native epoll client (native-echo-client/echo_client.c):
# the same echo server (its own process, one I/O thread), the same connections, pipeline depth and body size,
# one client thread each, closed loop, run one after the other. Prints both rates and the ratio.
#
# usage: bench/compare-native-client.sh [SECONDS] [CONNECTIONS:DEPTH:SIZE ...]
# Needs: the built jars (mvn -B -ntp -DskipTests package) and gcc.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_RUN=${1:-10}
shift || true
CASES=("$@")
if [ ${#CASES[@]} -eq 0 ]; then
  CASES=("1:1:64" "10:1:64" "10:16:64" "100:16:64" "100:16:1024")
fi
OUT=target/bench
mkdir -p "$OUT"
gcc -O2 -Wall -o "$OUT/echo_client" bench/native-echo-client/echo_client.c

java -jar echo-server/target/echo-server.jar --tcp-port 0 --udp-port -1 --metrics-port -1 --io-threads 1 \
  --idle-timeout 10m > "$OUT/server.out" 2> "$OUT/server.err" &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true' EXIT
for _ in $(seq 100); do grep -q "listening tcp" "$OUT/server.out" 2>/dev/null && break; sleep 0.1; done
PORT=$(sed -n 's/^listening tcp .*:\([0-9]*\)$/\1/p' "$OUT/server.out")
echo "echo server pid $SERVER on 127.0.0.1:$PORT ($(grep -o 'transport auto: [a-z_]*' "$OUT/server.err" || echo io))"

# Warm the server's JIT once before measuring anything.
java -jar load-generator/target/load-generator.jar echo --target "127.0.0.1:$PORT" --duration 5s --connections 10 \
  --pipeline 16 --json > /dev/null 2>&1 || true

printf '%-24s %14s %14s %8s\n' "connections:depth:size" "native (q/s)" "ricochet (q/s)" "ratio"
for c in "${CASES[@]}"; do
  IFS=: read -r CONN DEPTH SIZE <<< "$c"
  NATIVE=$("$OUT/echo_client" 127.0.0.1 "$PORT" "$CONN" "$DEPTH" "$SIZE" "$SECONDS_PER_RUN" | sed 's/.*= \([0-9]*\) replies.*/\1/')
  RICOCHET=$(java -jar load-generator/target/load-generator.jar echo --target "127.0.0.1:$PORT" --io-threads 1 \
    --connections "$CONN" --pipeline "$DEPTH" --size "$SIZE" --warmup 3s --duration "${SECONDS_PER_RUN}s" --json 2>/dev/null \
    | python3 -c 'import json,sys; print(round(json.load(sys.stdin)["qps"]))')
  RATIO=$(python3 -c "print(f'{$RICOCHET / $NATIVE:.2f}')")
  printf '%-24s %14s %14s %8s\n' "$c" "$NATIVE" "$RICOCHET" "$RATIO"
done
