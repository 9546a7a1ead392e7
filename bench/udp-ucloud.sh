#!/usr/bin/env bash
# UDP at full rate (issue 16), UCloud's tests on loopback, every contender in its own process, rounds interleaved:
#  1. echo, 10 sockets x 1 in flight x 64 B, from the C client: Ricochet's echo-server (one I/O thread) against
#     the C epoll UDP echo server (one thread). The client spins over its sockets on a core of its own, so it is faster
#     than either server: each run also notes the server process's CPU over the run (every thread's, as a share of one
#     core, summed up at the end as "echo server CPU"), near 1 when the server is what limits the rate (woken by epoll,
#     the client held the C server to 100K datagrams/s, each server well below a core);
#  2. packet rate (1 B) and bandwidth (1400 B) with udp-stream (4 sockets, 2 I/O threads): the zero-loss rate
#     (--search, loss <= 0.1% over 2 s trials) against the echo-server with one UDP channel and with one per I/O
#     thread (2, SO_REUSEPORT), and the C server. The search's first trial, as fast as the client sends, is kept in
#     its JSON but not tabled: on two cores the client's two sending threads then starve the server of CPU, so it
#     measures the contention, not the server;
#  3. iperf3 -u at 1400 B as fast as it sends, one way (iperf3 does not echo), as the loopback reference.
# Prints each contender's median (range) over the rounds and the ratios taken round by round.
#
# usage: [ECHO_ONLY=1] bench/udp-ucloud.sh [ROUNDS] [SECONDS]   (ECHO_ONLY: the echo case alone, no iperf3)
# Needs the built jars (mvn -B -ntp -DskipTests package), gcc and iperf3 (installed here when missing, as root).
# Writes target/bench/udp-ucloud/ (every run's output, runs.txt, table.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-3}
SECS=${2:-5}
OUT=target/bench/udp-ucloud
rm -rf "$OUT"; mkdir -p "$OUT"
LG="java -jar load-generator/target/load-generator.jar"
if [ -z "${ECHO_ONLY:-}" ] && ! command -v iperf3 > /dev/null; then
  apt-get install -y iperf3 > "$OUT/apt.log" 2>&1 || { echo "iperf3 is missing and could not be installed" >&2; exit 1; }
fi
gcc -O2 -Wall -o "$OUT/udp_echo_server" bench/native-udp-echo-server/udp_echo_server.c
gcc -O2 -Wall -o "$OUT/echo_client" bench/native-echo-client/echo_client.c

PIDS=()
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true' EXIT
declare -A PID_OF
start() { # NAME COMMAND... -> waits for "listening udp" in $OUT/NAME.out
  local name=$1; shift
  "$@" > "$OUT/$name.out" 2> "$OUT/$name.err" &
  PIDS+=($!)
  PID_OF[$name]=$!
  for _ in $(seq 300); do grep -q "listening udp" "$OUT/$name.out" 2>/dev/null && break; sleep 0.1; done
  grep -q "listening udp" "$OUT/$name.out" || { echo "$name did not start" >&2; cat "$OUT/$name.err" >&2; exit 1; }
}
port() { sed -n 's/^listening udp .*:\([0-9]*\)$/\1/p' "$OUT/$1.out"; }
metrics() { sed -n 's/^listening metrics \(http:.*\)$/\1/p' "$OUT/$1.out"; }
ES="java -jar echo-server/target/echo-server.jar --tcp-port -1 --udp-port 0 --rpc-port -1 --metrics-port 0"
start c "$OUT/udp_echo_server" 0
start r1 $ES --io-threads 1
[ -n "${ECHO_ONLY:-}" ] || start r2x1 $ES --io-threads 2 --udp-channels 1
[ -n "${ECHO_ONLY:-}" ] || start r2x2 $ES --io-threads 2
grep -h "udp bound" "$OUT"/r*.err | sed 's/^.*INFO //' >&2
[ -n "${ECHO_ONLY:-}" ] || {
IPERF_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
iperf3 -s -B 127.0.0.1 -p "$IPERF_PORT" > "$OUT/iperf3-server.out" 2>&1 &
PIDS+=($!)
}

cpu_ticks() { # PID -> user + system clock ticks of the process so far
  awk '{print $14 + $15}' "/proc/$1/stat"
}
echo_rate() { # NAME -> "RATE SERVER_CPU": verified replies/s of the C client, and the server's share of a core
  local before after rate
  before=$(cpu_ticks "${PID_OF[$1]}")
  rate=$("$OUT/echo_client" 127.0.0.1 "$(port "$1")" 10 1 64 "$SECS" udp | tee -a "$OUT/echo-$1.txt" \
    | sed -n 's/.* = \([0-9]*\) replies\/s.*/\1/p')
  after=$(cpu_ticks "${PID_OF[$1]}")
  echo "${rate:-0} $(python3 -c "print(round(($after - $before) / $(getconf CLK_TCK) / $SECS, 2))")"
}
stream() { # NAME SIZE ROUND -> the zero-loss rate; the search's output kept
  local scrape=() file="$OUT/stream-$1-$2-r$3.json"
  [ "$1" != c ] && scrape=(--scrape "$(metrics "$1")")
  $LG udp-stream --target "127.0.0.1:$(port "$1")" "${scrape[@]}" --size "$2" --sockets 4 --io-threads 2 \
    --search --duration 2s --json > "$file" 2> "$OUT/stream-$1-$2-r$3.err" || true
  python3 -c 'import json,sys; print(round(json.load(open(sys.argv[1]))["zero_loss_pps"] or 0))' "$file"
}
iperf() { # ROUND -> received datagrams/s of 1400 B, as fast as iperf3 sends
  iperf3 -c 127.0.0.1 -p "$IPERF_PORT" -u -b 0 -l 1400 -t "$SECS" -J > "$OUT/iperf3-r$1.json"
  python3 -c 'import json,sys; e=json.load(open(sys.argv[1]))["end"]["sum"]; print(round((e["packets"] - e["lost_packets"]) / e["seconds"]), e["lost_percent"])' "$OUT/iperf3-r$1.json"
}

# Warm the JIT of every Java server before measuring.
WARM="r1 r2x1 r2x2"
[ -z "${ECHO_ONLY:-}" ] || WARM=r1
for s in $WARM; do "$OUT/echo_client" 127.0.0.1 "$(port $s)" 10 1 64 3 udp > /dev/null; done
RUNS="$OUT/runs.txt"
for r in $(seq "$ROUNDS"); do
  for s in c r1; do
    read -r RATE CPU <<< "$(echo_rate $s)"
    echo "$r echo-10x1x64 $s $RATE" | tee -a "$RUNS"
    echo "$r $s $CPU" >> "$OUT/echo-server-cpu.txt"
  done
  [ -z "${ECHO_ONLY:-}" ] || continue
  for size in 1 1400; do
    for s in c r2x1 r2x2; do
      echo "$r zero-loss-${size}B $s $(stream $s $size "$r")" | tee -a "$RUNS"
    done
  done
  read -r IPPS ILOSS <<< "$(iperf "$r")"
  echo "$r iperf3-1400B-one-way iperf3 $IPPS" | tee -a "$RUNS"
  echo "# round $r iperf3 loss ${ILOSS}%" >> "$RUNS"
done
{
  echo "# $(date -u +%FT%TZ) commit $(git rev-parse --short HEAD), $(nproc) cores, $ROUNDS rounds, ${SECS}s echo runs, 2s search trials"
  echo "# c = C epoll UDP server (1 thread); r1 = echo-server --io-threads 1; r2x1 = --io-threads 2 --udp-channels 1;"
  echo "# r2x2 = --io-threads 2 (2 UDP channels, SO_REUSEPORT). Figures: verified datagrams/s."
  python3 bench/ratio-summary.py --ratio r1/c --ratio r2x2/r2x1 --ratio r2x2/c "$RUNS"
  grep "iperf3 loss" "$RUNS" || true
  python3 -c '
import statistics, sys
cpu = {}
for line in open(sys.argv[1]):
    r, server, share = line.split()
    cpu.setdefault(server, []).append(float(share))
print("# echo server CPU, a share of one core, median (min-max): " + ", ".join(
    f"{s} {statistics.median(v):.2f} ({min(v):.2f}-{max(v):.2f})" for s, v in cpu.items()))' "$OUT/echo-server-cpu.txt"
} | tee "$OUT/table.txt"
