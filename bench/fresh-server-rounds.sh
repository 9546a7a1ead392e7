#!/usr/bin/env bash
# The echo server and the C epoll server, each a fresh process every round, driven by the same native client at one
# shape: how much one fresh JVM differs from the next (the "slow mode"), apart from the noise of the machine, which
# the C server's rate in the same round shows. Each round starts both servers, warms the echo server as
# server-baselines.sh does (one run at the shape), measures the two in turn (the order alternating), and stops them.
# With PROFILE=1 each round's echo server also writes a JFR recording and its JIT compilation log next to the
# results, to compare a slow round with a fast one. Each measured run also notes how busy the server's I/O thread
# was (perf's task-clock), which tells a server slowed by its own work from one that was kept off the CPU.
#
# usage: bench/fresh-server-rounds.sh [ROUNDS] [SECONDS] [CONNECTIONS:DEPTH:SIZE]
# Needs the built jars (mvn -B -ntp -DskipTests package) and gcc. Writes target/bench/fresh-rounds/results.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-5}
SECS=${2:-5}
CASE=${3:-100:16:64}
IFS=: read -r CONN DEPTH SIZE <<< "$CASE"
OUT=target/bench/fresh-rounds
mkdir -p "$OUT"
gcc -O2 -Wall -o "$OUT/echo_client" bench/native-echo-client/echo_client.c
gcc -O2 -Wall -o "$OUT/echo_server" bench/native-echo-server/echo_server.c
JAR=${JAR:-echo-server/target/echo-server.jar}

PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null || true' EXIT
start() { # name command... ; waits for "listening tcp", sets PORT_<name> and PID_<name>
  local name=$1; shift
  "$@" > "$OUT/$name.out" 2> "$OUT/$name.err" &
  local pid=$!
  PIDS+=($pid)
  for _ in $(seq 200); do grep -q "listening tcp" "$OUT/$name.out" 2>/dev/null && break; sleep 0.1; done
  local port
  port=$(sed -n 's/^listening tcp [0-9.]*:\([0-9]*\).*/\1/p' "$OUT/$name.out" | head -1)
  [ -n "$port" ] || { echo "$name did not start: $(cat "$OUT/$name.err")" >&2; exit 1; }
  eval "PORT_$name=$port; PID_$name=$pid"
}
stop() { # pid
  kill "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}
qps() { "$OUT/echo_client" 127.0.0.1 "$1" "$CONN" "$DEPTH" "$SIZE" "$SECS" | sed 's/.*= \([0-9]*\) replies.*/\1/'; }
# measured SERVER_PID PORT: the rate, then how busy the server's I/O thread was over the middle of the run (from
# perf's task-clock; "?" without perf): a server whose only I/O thread runs below 100% while the client waits on it was
# kept off the CPU, by sharing one with the client for one.
measured() {
  "$OUT/echo_client" 127.0.0.1 "$2" "$CONN" "$DEPTH" "$SIZE" "$SECS" > "$OUT/client.out" &
  local client=$! busy="?"
  sleep 1
  local busiest
  # The echo server's one event loop, or the C server's one thread.
  busiest=$(ps -L -o tid=,comm= -p "$1" | awk '$2 ~ /-io-/ {print $1; exit}')
  busiest=${busiest:-$1}
  if command -v perf > /dev/null && [ "$SECS" -ge 3 ]; then
    busy=$(perf stat -x, -e task-clock -t "$busiest" -- sleep $((SECS - 2)) 2>&1 \
      | awk -F, -v s=$((SECS - 2)) '/task-clock/ {printf "%d%%", $1 / (10 * s)}')
  fi
  wait "$client" || true
  echo "$(sed 's/.*= \([0-9]*\) replies.*/\1/' "$OUT/client.out") $busy"
}

echo "# $(date -u +%FT%TZ) commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(nproc) cores," \
  "$CASE, ${SECS}s per run, a fresh server per round" | tee "$OUT/results.txt"
for round in $(seq "$ROUNDS"); do
  profile=()
  if [ -n "${PROFILE:-}" ]; then
    profile=(-XX:StartFlightRecording=filename="$OUT/round-$round.jfr",settings=profile
      -XX:+UnlockDiagnosticVMOptions -XX:+LogCompilation -XX:LogFile="$OUT/round-$round-compilation.log")
  fi
  start ricochet java "${profile[@]}" -jar "$JAR" --tcp-port 0 --udp-port -1 --rpc-port -1 --metrics-port 0 \
    --io-threads 1 --idle-timeout 10m
  start c "$OUT/echo_server" 0
  qps "$PORT_ricochet" > /dev/null
  if (( round % 2 )); then order=(ricochet c); else order=(c ricochet); fi
  for s in "${order[@]}"; do
    p="PORT_$s"
    q="PID_$s"
    read -r rate busy <<< "$(measured "${!q}" "${!p}")"
    echo "$round $CASE $s $rate" | tee -a "$OUT/results.txt"
    echo "#   $s: its I/O thread ran $busy of the time" | tee -a "$OUT/results.txt"
  done
  stop "$PID_c"
  stop "$PID_ricochet"
done
echo
python3 bench/ratio-summary.py --ratio ricochet/c "$OUT/results.txt" | tee -a "$OUT/results.txt"
