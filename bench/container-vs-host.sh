#!/usr/bin/env bash
# The echo server in its image, run as a restricted pod runs it (read-only, /tmp noexec, user 10001, no capabilities,
# --memory 256m, host network), against the same jar on the host: each round starts one, loads it with the generator
# on the host (100 connections x 16 in flight x 64 B, 2 s warmup, 8 s), and stops it, the two taking turns. Both use
# one I/O thread on epoll. Prints "ROUND echo-100x16 container|host QPS" lines for bench/ratio-summary.py.
# Needs the image: docker/stand-in-base.sh, then DOCKER_BUILDKIT=1 docker build --network host -t ricochet/ricochet:0.1.0 .
#
# usage: bench/container-vs-host.sh LG_JAR SERVER_JAR [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
JAR=$1
SERVER=$2
ROUNDS=${3:-5}
OUT=target/bench/container
mkdir -p "$OUT"
ARGS=(--host 127.0.0.1 --tcp-port 0 --udp-port -1 --rpc-port -1 --metrics-port -1 --io-threads 1 --transport epoll)
load() {
  java -jar "$JAR" echo --target "$1" --connections 100 --pipeline 16 --size 64 --duration 8s --warmup 2s --json \
    2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); print("%.0f" % d["qps"])'
}
port_of() {
  for _ in $(seq 200); do
    p=$(sed -n 's/^listening tcp .*:\([0-9]*\)$/\1/p' "$1" 2>/dev/null || true)
    [ -n "$p" ] && { echo "127.0.0.1:$p"; return; }
    sleep 0.1
  done
  echo "no listening line in $1" >&2; exit 1
}
for round in $(seq "$ROUNDS"); do
  java -XX:+UseParallelGC -XX:MaxRAMPercentage=40 -jar "$SERVER" "${ARGS[@]}" > "$OUT/host.out" 2>&1 &
  PID=$!
  echo "$round echo-100x16 host $(load "$(port_of "$OUT/host.out")")"
  kill "$PID"; wait "$PID" 2>/dev/null || true
  NAME=ricochet-bench-$$-$round
  /usr/bin/docker run -d --name "$NAME" --network host --read-only --tmpfs /tmp:rw,noexec,nosuid,size=64m \
    --user 10001:10001 --cap-drop ALL --security-opt no-new-privileges --memory 256m --entrypoint java \
    ricochet/ricochet:0.1.0 -XX:+UseParallelGC -XX:MaxRAMPercentage=40 -Djava.library.path=/app/native \
    -XX:SharedArchiveFile=/app/cds/echo-server.jsa -Xlog:disable -Xlog:all=warning:stderr \
    -jar /app/echo-server.jar "${ARGS[@]}" > /dev/null
  for _ in $(seq 200); do /usr/bin/docker logs "$NAME" > "$OUT/container.out" 2>&1; grep -q "listening tcp" "$OUT/container.out" && break; sleep 0.1; done
  echo "$round echo-100x16 container $(load "$(port_of "$OUT/container.out")")"
  /usr/bin/docker rm -f "$NAME" > /dev/null
done
