#!/usr/bin/env bash
# Regenerates every measured table of docs/perf/history.md on this machine, from scratch, into
# target/report/. Takes about an hour on 2 cores, half of it JMH's full profile. Needs Java 17, Maven and gcc.
#
# usage: bench/report.sh [SECONDS_PER_LOAD_RUN]
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${1:-5}
OUT=target/report
mkdir -p "$OUT"
{
  echo "# machine"
  echo "cores: $(nproc)"
  echo "memory: $(free -g | awk '/Mem:/ {print $2}') GiB"
  echo "kernel: $(uname -r)"
  echo "java: $(java -version 2>&1 | head -1)"
  echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "date: $(date -u +%F)"
} | tee "$OUT/machine.txt"

mvn -B -ntp -q -DskipTests package

echo "== server vs idiomatic Netty and a C epoll server (3 interleaved rounds)"
bench/server-baselines.sh 3 "$SECS" | tee "$OUT/server-baselines.txt"

echo "== generator vs a native epoll client, both against the C epoll server (3 interleaved rounds)"
bench/compare-native-client.sh 3 "$SECS" | tee "$OUT/native-client.txt"

echo "== latency, CPU and RSS against idiomatic Netty"
bench/baseline-comparison.sh "$SECS" 1:1:64 100:1:64 100:16:64 1000:1:64 100:16:1024 | tee "$OUT/baseline.txt"

echo "== transports end to end, and held connections per process"
bench/transports-and-held.sh "$SECS" | tee "$OUT/transports-and-held.txt"

echo "== RPC against raw frames"
bench/rpc-vs-echo.sh 3 1 4 | tee "$OUT/rpc-vs-echo.txt"

echo "== distributed run against one process"
bench/distributed-vs-single.sh 4 "$SECS" --connections 400 --pipeline 4 | tee "$OUT/distributed-vs-single.txt"

echo "== generator heap per held connection"
bench/generator-heap-per-connection.sh 100 | tee "$OUT/generator-heap-100.txt"
bench/generator-heap-per-connection.sh 10100 | tee "$OUT/generator-heap-10100.txt"

echo "== server heap per idle connection"
mvn -B -ntp -q verify -pl echo-server -am -Djmh.skip -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
  -Dit.test=IdleConnectionFootprintIT -Dfailsafe.failIfNoSpecifiedTests=false
grep -h footprint echo-server/target/failsafe-reports/*-output.txt | tee "$OUT/server-footprint.txt"

echo "== load generator shapes (client and server in one JVM)"
LG="java -jar load-generator/target/load-generator.jar"
$LG rr --duration "${SECS}s" --warmup 2s 2>/dev/null | tee "$OUT/rr.txt"
$LG crr --duration "${SECS}s" --concurrency 4 2>/dev/null | tee "$OUT/crr.txt"
$LG udp-stream --duration "${SECS}s" --size 1 --io-threads 2 2>/dev/null | tee "$OUT/udp-stream-1.txt"
$LG udp-stream --duration "${SECS}s" --size 1400 --io-threads 2 2>/dev/null | tee "$OUT/udp-stream-1400.txt"
$LG sweep --requests-per-step 1000 2>/dev/null | tee "$OUT/sweep.txt"

echo "== JMH (full profile)"
java -jar jmh/target/benchmarks.jar -rf json -rff "$OUT/jmh.json" | tee "$OUT/jmh.txt"
echo "tables in $OUT"
