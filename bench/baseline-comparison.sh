#!/usr/bin/env bash
# Ricochet's echo server against idiomatic Netty (jmh: io.ricochet.baseline.NettyEchoServer),
# measured with the load generator in the same run: each server in its own JVM with one I/O thread, the
# same transport, the generator with one I/O thread. Prints QPS and latency per case and the ratio, then
# the p99 of both at half the baseline's 100 x 16 x 64 B rate (open loop, corrected).
#
# usage: bench/baseline-comparison.sh [SECONDS] [CONNECTIONS:DEPTH:SIZE ...]
# Needs the built jars (mvn -B -ntp -DskipTests package).
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${1:-5}
shift || true
CASES=("$@")
if [ ${#CASES[@]} -eq 0 ]; then
  CASES=()
  for conns in 1 10 100 1000; do for depth in 1 16; do for size in 64 1024; do CASES+=("$conns:$depth:$size"); done; done; done
fi
OUT=target/bench
mkdir -p "$OUT"
LG="java -jar load-generator/target/load-generator.jar"

java -jar echo-server/target/echo-server.jar --tcp-port 0 --udp-port -1 --metrics-port -1 --io-threads 1 \
  --idle-timeout 10m > "$OUT/ricochet.out" 2> "$OUT/ricochet.err" &
RICOCHET_PID=$!
java -cp jmh/target/benchmarks.jar io.ricochet.baseline.NettyEchoServer 0 1 auto idiomatic > "$OUT/baseline.out" 2> "$OUT/baseline.err" &
BASELINE_PID=$!
trap 'kill $RICOCHET_PID $BASELINE_PID 2>/dev/null || true; wait 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  grep -q "listening tcp" "$OUT/ricochet.out" 2>/dev/null && grep -q "listening tcp" "$OUT/baseline.out" 2>/dev/null && break
  sleep 0.1
done
R_PORT=$(sed -n 's/^listening tcp .*:\([0-9]*\)$/\1/p' "$OUT/ricochet.out")
B_PORT=$(sed -n 's/^listening tcp 127.0.0.1:\([0-9]*\) .*/\1/p' "$OUT/baseline.out")
echo "ricochet pid $RICOCHET_PID port $R_PORT; idiomatic netty pid $BASELINE_PID port $B_PORT ($(sed 's/.*(netty idiomatic, \(.*\))/\1/' "$OUT/baseline.out"))"

ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
rss_mb() { awk '/VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/$1/status"; }

run() { # pid port conns depth size [rate] -> "qps p50 p99 max avg bad+errors cpu% rss_mb"
  local extra="" before after start end
  [ -n "${6:-}" ] && extra="--rate $6"
  before=$(ticks "$1"); start=$(date +%s.%N)
  local summary
  summary=$($LG echo --target "127.0.0.1:$2" --io-threads 1 --connections "$3" --pipeline "$4" --size "$5" $extra \
    --connect-rate 5000 --warmup 2s --duration "${SECS}s" --json 2>/dev/null)
  after=$(ticks "$1"); end=$(date +%s.%N)
  # Server CPU over the whole run (warmup included), as a share of one core.
  local cpu
  cpu=$(python3 -c "print(round(100 * ($after - $before) / $(getconf CLK_TCK) / ($end - $start)))")
  echo "$summary" | python3 -c 'import json,sys; s=json.load(sys.stdin); l=s["latency_us"]; print(round(s["qps"]), l["p50"], l["p99"], l["max"], round(l["mean"]), s["bad"]+s["errors"], end=" ")'
  echo "$cpu $(rss_mb "$1")"
}
# Warm both servers' JIT before measuring.
run "$RICOCHET_PID" "$R_PORT" 10 16 64 > /dev/null; run "$BASELINE_PID" "$B_PORT" 10 16 64 > /dev/null

printf '%-14s | %10s %6s %6s %7s %7s %5s %5s | %10s %6s %6s %7s %7s %5s %5s | %5s\n' "conns:depth:sz" \
  "ricochet/s" "avg" "p50" "p99" "max" "cpu%" "rssMB" "netty/s" "avg" "p50" "p99" "max" "cpu%" "rssMB" "ratio"
for c in "${CASES[@]}"; do
  IFS=: read -r CONN DEPTH SIZE <<< "$c"
  read -r RQ RP50 RP99 RMAX RAVG RERR RCPU RRSS <<< "$(run "$RICOCHET_PID" "$R_PORT" "$CONN" "$DEPTH" "$SIZE")"
  read -r BQ BP50 BP99 BMAX BAVG BERR BCPU BRSS <<< "$(run "$BASELINE_PID" "$B_PORT" "$CONN" "$DEPTH" "$SIZE")"
  printf '%-14s | %10s %6s %6s %7s %7s %5s %5s | %10s %6s %6s %7s %7s %5s %5s | %5s\n' "$c" \
    "$RQ" "$RAVG" "$RP50" "$RP99" "$RMAX" "$RCPU" "$RRSS" "$BQ" "$BAVG" "$BP50" "$BP99" "$BMAX" "$BCPU" "$BRSS" \
    "$(python3 -c "print(f'{$RQ / $BQ:.2f}')")"
  if [ "$RERR" != 0 ] || [ "$BERR" != 0 ]; then echo "  bad replies or errors: ricochet $RERR, netty $BERR"; fi
done

read -r BQ _ <<< "$(run "$BASELINE_PID" "$B_PORT" 100 16 64)"
HALF=$((BQ / 2))
read -r _ RP50 RP99 RMAX _ <<< "$(run "$RICOCHET_PID" "$R_PORT" 100 16 64 "$HALF")"
read -r _ BP50 BP99 BMAX _ <<< "$(run "$BASELINE_PID" "$B_PORT" 100 16 64 "$HALF")"
echo "half load (open loop at $HALF req/s, 100 x 16 x 64 B, corrected): ricochet p50 $RP50 p99 $RP99 max $RMAX us; idiomatic netty p50 $BP50 p99 $BP99 max $BMAX us; p99 ratio $(python3 -c "print(f'{$RP99 / max($BP99, 1):.2f}')")"
