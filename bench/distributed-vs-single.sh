#!/usr/bin/env bash
# Does splitting a run over workers cost throughput? One echo-server process (one I/O thread); the same
# echo scenario run by one load-generator process and by the controller with N local workers, one after
# the other, each after the same warmup. Prints both QPS figures and the ratio distributed/single.
#
# usage: bench/distributed-vs-single.sh [WORKERS] [SECONDS] [SCENARIO OPTIONS...]
# Needs: the built jars (mvn -B -ntp -DskipTests package).
set -euo pipefail
cd "$(dirname "$0")/.."
WORKERS=${1:-4}
SECS=${2:-10}
shift 2 || true
OPTS=("$@")
if [ ${#OPTS[@]} -eq 0 ]; then
  OPTS=(--connections 400 --pipeline 4)
fi
OUT=target/bench
mkdir -p "$OUT"
java -jar echo-server/target/echo-server.jar --tcp-port 0 --udp-port -1 --rpc-port -1 --metrics-port 0 --io-threads 1 \
  --idle-timeout 10m > "$OUT/dist-server.out" 2> "$OUT/dist-server.err" &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true' EXIT
for _ in $(seq 100); do grep -q "listening metrics" "$OUT/dist-server.out" 2>/dev/null && break; sleep 0.1; done
TCP=$(sed -n 's/^listening tcp //p' "$OUT/dist-server.out")
METRICS=$(sed -n 's/^listening metrics //p' "$OUT/dist-server.out")
LG="java -jar load-generator/target/load-generator.jar"
qps() { python3 -c "import json,sys; d=json.load(sys.stdin); d=d.get('merged', d); print(round(d['qps']), d['latency_us']['p99'], d['ok'], d['server']['frames_sent'])"; }

# Warm the server's JIT once before measuring anything.
$LG echo --target "$TCP" --duration 5s --connections 10 --pipeline 16 --json > /dev/null 2>&1 || true

read -r SQ SP SOK SFRAMES < <($LG echo --target "$TCP" --scrape "$METRICS" "${OPTS[@]}" --warmup "${WARMUP:-3s}" --duration "${SECS}s" --json 2>/dev/null | qps)
read -r DQ DP DOK DFRAMES < <($LG controller --workers "$WORKERS" ${WORKER_JVM_ARGS:+--worker-jvm-args="$WORKER_JVM_ARGS"} echo --target "$TCP" --scrape "$METRICS" "${OPTS[@]}" \
  --warmup "${WARMUP:-3s}" --duration "${SECS}s" --json 2>/dev/null | qps)
echo "scenario: echo ${OPTS[*]}, ${SECS}s after ${WARMUP:-3s} warmup"
printf '%-26s %12s %10s %12s %16s\n' "" "QPS" "p99 (us)" "ok" "server frames"
printf '%-26s %12s %10s %12s %16s\n' "one process" "$SQ" "$SP" "$SOK" "$SFRAMES"
printf '%-26s %12s %10s %12s %16s\n' "controller, $WORKERS workers" "$DQ" "$DP" "$DOK" "$DFRAMES"
echo "ratio distributed/single: $(python3 -c "print(f'{$DQ / $SQ:.2f}')")"
