#!/usr/bin/env bash
# The echo server, Netty's floor (NettyEchoServer's "floor" mode: one handler, frames reversed in place, no
# framework) and the C epoll server, each a fresh process every round, driven by the same native client at one
# shape: how much one fresh JVM differs from the next (the "slow mode"), apart from the noise of the machine, which
# the C server's rate in the same round shows. Each round starts the three servers, warms the two JVMs as
# server-baselines.sh does (one run at the shape), measures the three in turn (the order rotating), and stops them.
# With PROFILE=1 each round's echo server also writes a JFR recording and its JIT compilation log next to the
# results, to compare a slow round with a fast one. Each measured run also notes how busy the server's I/O thread
# was (perf's task-clock), which tells a server slowed by its own work from one that was kept off the CPU, and that
# thread's user and system CPU per 1,000 replies, which tells the server's own code from the kernel's work.
#
# usage: bench/fresh-server-rounds.sh [ROUNDS] [SECONDS] [CONNECTIONS:DEPTH:SIZE]
# Needs the built jars (mvn -B -ntp -DskipTests package: the echo server's and jmh's) and gcc.
# Writes target/bench/fresh-rounds/results.txt.
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
# measured SERVER_PID PORT: the rate; how busy the server's I/O thread was over the middle of the run (from perf's
# task-clock; "?" without perf), since a server whose only I/O thread runs below 100% while the client waits on it was
# kept off the CPU, by sharing one with the client for one; and that thread's user and system CPU per 1,000 replies
# over the same window (from /proc), which splits a server's own work from the kernel's.
measured() {
  "$OUT/echo_client" 127.0.0.1 "$2" "$CONN" "$DEPTH" "$SIZE" "$SECS" > "$OUT/client.out" &
  local client=$! busy="" window=$((SECS - 2)) before="" after="" started ended
  sleep 1
  local busiest
  # The echo server's one event loop, or the C server's one thread.
  busiest=$(ps -L -o tid=,comm= -p "$1" | awk '$2 ~ /-io-/ {print $1; exit}')
  busiest=${busiest:-$1}
  if [ "$window" -ge 1 ]; then
    before=$(cpu_ticks "$1" "$busiest")
    started=$(date +%s%N)
    if command -v perf > /dev/null; then
      busy=$(perf stat -x, -e task-clock -t "$busiest" -- sleep "$window" 2>&1 \
        | awk -F, -v s="$window" '/task-clock/ && $1 + 0 > 0 {printf "%d%%", $1 / (10 * s)}') || true
    fi
    # However perf fared, the CPU is read over a window of the length asked, and divided by the time it really took.
    ended=$(date +%s%N)
    local left_ms=$(( window * 1000 - (ended - started) / 1000000 ))
    [ "$left_ms" -le 0 ] || sleep "$(awk -v ms="$left_ms" 'BEGIN {printf "%.3f", ms / 1000}')"
    after=$(cpu_ticks "$1" "$busiest")
    ended=$(date +%s%N)
  fi
  wait "$client" || true
  local rate
  rate=$(sed -n 's/.*= \([0-9]*\) replies.*/\1/p' "$OUT/client.out")
  echo "${rate:-?} ${busy:-?} $(per_thousand_replies "$before" "$after" "${rate:-0}" "${started:-0}" "${ended:-0}")"
}
cpu_ticks() { # PID TID: the thread's user and system time so far, in clock ticks (the fields after its name)
  sed 's/.*) //' "/proc/$1/task/$2/stat" 2>/dev/null | awk '{print $12, $13}' || true
}
# "USER SYS" ticks before and after, replies/s, the window's start and end in ns: CPU microseconds per 1,000 replies.
# The replies are estimated from the run's average rate. The kernel splits user from system time by sampling at the
# clock tick, so the smaller figure, user, varies by about a sixth from run to run; compare medians over rounds.
per_thousand_replies() {
  if [ -z "$1" ] || [ -z "$2" ] || ! [[ "$3" =~ ^[1-9][0-9]*$ ]] || [ "$5" -le "$4" ]; then echo "? ?"; return; fi
  awk -v a="$1" -v b="$2" -v rate="$3" -v ns="$(( $5 - $4 ))" -v hz="$(getconf CLK_TCK)" 'BEGIN {
    split(a, x, " "); split(b, y, " "); thousands = rate * ns / 1e9 / 1000
    printf "%.1f %.1f", (y[1] - x[1]) * 1e6 / hz / thousands, (y[2] - x[2]) * 1e6 / hz / thousands }'
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
  start floor java -cp jmh/target/benchmarks.jar io.ricochet.baseline.NettyEchoServer 0 1 auto floor
  qps "$PORT_ricochet" > /dev/null
  qps "$PORT_floor" > /dev/null
  servers=(ricochet floor c)
  for i in "${!servers[@]}"; do
    s=${servers[$(( (i + round) % ${#servers[@]} ))]}
    p="PORT_$s"
    q="PID_$s"
    read -r rate busy user sys <<< "$(measured "${!q}" "${!p}")"
    [[ "$rate" =~ ^[0-9]+$ ]] || { echo "round $round: no rate from $s: $(cat "$OUT/client.out")" >&2; exit 1; }
    echo "$round $CASE $s $rate" | tee -a "$OUT/results.txt"
    echo "#   $s: its I/O thread ran $busy of the time; CPU per 1,000 replies: user $user µs, system $sys µs" \
      | tee -a "$OUT/results.txt"
  done
  stop "$PID_c"
  stop "$PID_floor"
  stop "$PID_ricochet"
done
echo
python3 bench/ratio-summary.py --ratio ricochet/c --ratio floor/c --ratio ricochet/floor "$OUT/results.txt" | tee -a "$OUT/results.txt"
