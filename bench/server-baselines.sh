#!/usr/bin/env bash
# The echo server against honest baselines, all driven by the same independent native epoll client
# (native-echo-client/echo_client.c), each server in its own process with one I/O thread:
#   ricochet  the echo server as shipped (metrics on, Netty's leak detector off, defaults otherwise);
#   netty     idiomatic Netty (jmh: io.ricochet.baseline.NettyEchoServer): Netty's codecs, flush per read batch;
#   naive     the same with a flush per frame, a labelled row only;
#   floor     Netty's floor: one handler reversing whole frames in place in the read buffer, no codecs, a flush per
#             read batch; what Netty's channel costs below any framework, a labelled row only;
#   c         a single-threaded C epoll server (native-echo-server/echo_server.c), the physical reference.
# With BEFORE_JAR=path/to/echo-server.jar, that jar runs too as "before", to measure one change on its own.
# Servers are interleaved round by round (the order rotates), and the summary gives the median and range over the
# rounds of each rate and of each ratio, taken within a round.
#
# usage: bench/server-baselines.sh [ROUNDS] [SECONDS] [CONNECTIONS:DEPTH:SIZE ...]
# Needs the built jars (mvn -B -ntp -DskipTests package) and gcc. Writes target/bench/server-baselines.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-3}
SECS=${2:-5}
shift 2 || shift $# || true
CASES=("$@")
[ ${#CASES[@]} -gt 0 ] || CASES=("1:1:64" "100:1:64" "100:16:64" "1000:1:64" "100:16:1024")
OUT=target/bench
mkdir -p "$OUT"
gcc -O2 -Wall -o "$OUT/echo_client" bench/native-echo-client/echo_client.c
gcc -O2 -Wall -o "$OUT/echo_server" bench/native-echo-server/echo_server.c
TRANSPORT=${TRANSPORT:-auto}

PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null || true' EXIT
start() { # name command... ; waits for "listening tcp", sets PORT_<name>
  local name=$1; shift
  "$@" > "$OUT/$name.out" 2> "$OUT/$name.err" &
  PIDS+=($!)
  for _ in $(seq 200); do grep -q "listening tcp" "$OUT/$name.out" 2>/dev/null && break; sleep 0.1; done
  local port
  port=$(sed -n 's/^listening tcp [0-9.]*:\([0-9]*\).*/\1/p' "$OUT/$name.out" | head -1)
  [ -n "$port" ] || { echo "$name did not start: $(cat "$OUT/$name.err")" >&2; exit 1; }
  eval "PORT_$name=$port"
}
start ricochet java -jar echo-server/target/echo-server.jar --tcp-port 0 --udp-port -1 --rpc-port -1 --metrics-port 0 \
  --io-threads 1 --transport "$TRANSPORT" --idle-timeout 10m
start netty java -cp jmh/target/benchmarks.jar io.ricochet.baseline.NettyEchoServer 0 1 "$TRANSPORT" idiomatic
start naive java -cp jmh/target/benchmarks.jar io.ricochet.baseline.NettyEchoServer 0 1 "$TRANSPORT" naive
start floor java -cp jmh/target/benchmarks.jar io.ricochet.baseline.NettyEchoServer 0 1 "$TRANSPORT" floor
start c "$OUT/echo_server" 0
SERVERS=(ricochet netty naive floor c)
RATIOS=(--ratio ricochet/c --ratio ricochet/netty --ratio netty/c --ratio naive/netty --ratio floor/c --ratio ricochet/floor)
if [ -n "${BEFORE_JAR:-}" ]; then
  start before java -jar "$BEFORE_JAR" --tcp-port 0 --udp-port -1 --rpc-port -1 --metrics-port 0 --io-threads 1 \
    --transport "$TRANSPORT" --idle-timeout 10m
  SERVERS+=(before)
  RATIOS+=(--ratio ricochet/before)
fi
echo "# $(date -u +%FT%TZ) commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(nproc) cores," \
  "ricochet: $(grep -o 'transport auto: [a-z_]*' "$OUT/ricochet.err" || echo "$TRANSPORT")," \
  "netty: $(sed 's/.*(netty idiomatic, \(.*\))/\1/' "$OUT/netty.out"), ${SECS}s per run${BEFORE_JAR:+, before: $BEFORE_JAR}" \
  | tee "$OUT/server-baselines.txt"

qps() { "$OUT/echo_client" 127.0.0.1 "$1" "$2" "$3" "$4" "$SECS" | sed 's/.*= \([0-9]*\) replies.*/\1/'; }
# Warm every JVM's JIT before measuring.
for s in "${SERVERS[@]}"; do p="PORT_$s"; qps "${!p}" 100 16 64 > /dev/null; done

for round in $(seq "$ROUNDS"); do
  for c in "${CASES[@]}"; do
    IFS=: read -r CONN DEPTH SIZE <<< "$c"
    # Rotate the order each round so no server always runs first after a case change.
    for i in "${!SERVERS[@]}"; do
      s=${SERVERS[$(( (i + round) % ${#SERVERS[@]} ))]}
      p="PORT_$s"
      echo "$round $c $s $(qps "${!p}" "$CONN" "$DEPTH" "$SIZE")" | tee -a "$OUT/server-baselines.txt"
    done
  done
done
echo
python3 bench/ratio-summary.py "${RATIOS[@]}" "$OUT/server-baselines.txt" | tee -a "$OUT/server-baselines.txt"
