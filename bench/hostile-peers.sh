#!/usr/bin/env bash
# The hardening issue's hostile peers against one or more echo-server jars, each attack on a fresh server
# process: a reset right after data (descriptors held), replies owed before an invalid frame with more
# input coming, an agent route owner that never reads, and /metrics pipelined without reading. Prints one
# line per jar and attack. To compare with the code before the fixes, build that commit's jar first:
#
#   git worktree add /tmp/ricochet-before 4f7a6d4 && (cd /tmp/ricochet-before && mvn -B -ntp -q -DskipTests -Djmh.skip package)
#   bench/hostile-peers.sh /tmp/ricochet-before/echo-server/target/echo-server.jar echo-server/target/echo-server.jar
#
# usage: bench/hostile-peers.sh [ECHO_SERVER_JAR ...]   (default: this tree's, mvn -B -ntp -DskipTests package)
set -euo pipefail
cd "$(dirname "$0")/.."
JARS=("$@")
[ ${#JARS[@]} -gt 0 ] || JARS=(echo-server/target/echo-server.jar)
OUT=target/bench/hostile
mkdir -p "$OUT"
PEERS=bench/hostile/HostilePeers.java

rss_mb() { awk '/VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/$1/status"; }
fds() { ls "/proc/$1/fd" | wc -l; }
# The echo port's open connections, in the tags of the jar's version: transport="tcp" before API v2, protocol="tcp" after.
active() { curl -s --max-time 5 "$1" | awk '/^ricochet_connections_active\{/ && /(transport|protocol)="tcp"/ {print $NF}'; }
health() { curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$1" || true; }

# start JAR ARGS... -> sets PID TCP RPC METRICS
start() {
  local jar=$1; shift
  java -Xmx512m -jar "$jar" --tcp-port 0 --udp-port -1 --rpc-port 0 --metrics-port 0 "$@" > "$OUT/server.out" 2> "$OUT/server.err" &
  PID=$!
  for _ in $(seq 100); do grep -q "listening metrics" "$OUT/server.out" 2>/dev/null && break; sleep 0.1; done
  TCP=$(sed -n 's/^listening tcp \(.*\)$/\1/p' "$OUT/server.out")
  RPC=$(sed -n 's/^listening rpc \(.*\)$/\1/p' "$OUT/server.out")
  METRICS=$(sed -n 's/^listening metrics \(.*\)$/\1/p' "$OUT/server.out")
}
stop() { kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; }
trap stop EXIT

for jar in "${JARS[@]}"; do
  echo "== $jar"
  for transport in auto io_uring; do
    start "$jar" --transport "$transport"
    base=$(fds "$PID")
    java -cp "$jar" "$PEERS" rst "$TCP" 2000 > /dev/null
    sleep 1
    echo "rst x2000, $transport ($(sed -n 's/.*tcp bound to .*(\(.*\))$/\1/p' "$OUT/server.err" | head -1)): active $(active "$METRICS"), descriptors +$(( $(fds "$PID") - base ))"
    stop
  done
  for transport in auto io_uring; do
    start "$jar" --transport "$transport"
    echo "owed replies, $transport: $(java -cp "$jar" "$PEERS" owed "$TCP" 40)"
    stop
  done
  start "$jar"
  before=$(rss_mb "$PID")
  result=$(java -cp "$jar" "$PEERS" relay "$RPC" 10)
  echo "relay to a non-reading owner, 10 s: RSS ${before} -> $(rss_mb "$PID" 2>/dev/null || echo gone) MB, $result, /health $(health "${METRICS%/metrics}/health"), server errors: $(grep -c -i 'OutOfMemoryError' "$OUT/server.err") OutOfMemoryError"
  stop
  start "$jar"
  before=$(rss_mb "$PID")
  hostport=${METRICS#http://}
  result=$(java -cp "$jar" "$PEERS" metrics "${hostport%/metrics}" 20000 2>&1 | tail -1)
  sleep 2
  echo "/metrics pipelined x20000, never read: RSS ${before} -> $(rss_mb "$PID") MB, $result, /health $(health "${METRICS%/metrics}/health")"
  stop
done
