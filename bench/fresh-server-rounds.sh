#!/usr/bin/env bash
# The echo server and the C epoll server, each a fresh process every round, driven by the same native client at one
# shape: how much one fresh JVM differs from the next (the "slow mode"), apart from the noise of the machine, which
# the C server's rate in the same round shows. Each round starts both servers, warms the echo server as
# server-baselines.sh does (one run at the shape), measures the two in turn (the order alternating), and stops them.
# With PROFILE=1 each round's echo server also writes a JFR recording and its JIT compilation log next to the
# results, to compare a slow round with a fast one. Each measured run also notes, ten times a second, the CPU its
# client and the server's busiest thread last ran on, and prints the share of samples on which they shared one.
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
# measured SERVER_PID PORT: the rate, then the share of samples on which the client and the server's busiest thread
# last ran on one CPU.
measured() {
  "$OUT/echo_client" 127.0.0.1 "$2" "$CONN" "$DEPTH" "$SIZE" "$SECS" > "$OUT/client.out" &
  local client=$! shared=0 samples=0
  sleep 1
  while kill -0 "$client" 2> /dev/null; do
    local busiest cpu_server cpu_client
    busiest=$(ps -L -o tid=,pcpu= -p "$1" | sort -k2 -rn | head -1 | awk '{print $1}')
    cpu_server=$(awk '{print $39}' "/proc/$1/task/$busiest/stat" 2> /dev/null || echo -1)
    cpu_client=$(awk '{print $39}' "/proc/$client/stat" 2> /dev/null || echo -2)
    samples=$((samples + 1))
    [ "$cpu_server" = "$cpu_client" ] && shared=$((shared + 1))
    sleep 0.1
  done
  wait "$client" || true
  echo "$(sed 's/.*= \([0-9]*\) replies.*/\1/' "$OUT/client.out") $((samples == 0 ? 0 : 100 * shared / samples))%"
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
    read -r rate shared <<< "$(measured "${!q}" "${!p}")"
    echo "$round $CASE $s $rate" | tee -a "$OUT/results.txt"
    echo "#   $s shared a CPU with the client in $shared of the samples" | tee -a "$OUT/results.txt"
  done
  stop "$PID_c"
  stop "$PID_ricochet"
done
echo
python3 bench/ratio-summary.py --ratio ricochet/c "$OUT/results.txt" | tee -a "$OUT/results.txt"
