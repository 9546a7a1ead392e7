#!/usr/bin/env bash
# Plaintext against TLS, side by side, as FPNN's stress report compares plain connections with SSL: one
# echo-server (one I/O thread, epoll) with a plaintext and a TLS port on OpenSSL, and one with a TLS port on
# the JDK's provider. Rounds interleave the contenders. Per round: echo at 100 connections, closed loop (x1)
# and pipelined (x16), 64 B, 5 s after a 2 s warmup; then crr --tls (a full handshake per transaction) on
# each provider. Prints one line per round and contender: QPS, p50 and p99 in microseconds, server CPU
# (the largest per-interval process_cpu_usage from /metrics, a share of all cores), bad replies and errors.
# Take the median and range over the rounds.
#
# usage: bench/tls-vs-plain.sh [ROUNDS]       (needs: mvn -B -ntp -DskipTests package)
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-3}
OUT=target/bench/tls
mkdir -p "$OUT"
SERVER=echo-server/target/echo-server.jar
LOAD=load-generator/target/load-generator.jar
# A throwaway CA and certificate for localhost and 127.0.0.1.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -keyout "$OUT/server.key" \
  -out "$OUT/server.crt" -subj "/CN=localhost" -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" 2>/dev/null
PIDS=()
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true' EXIT

start() { # name provider
  java -jar "$SERVER" --tcp-port 0 --udp-port -1 --rpc-port -1 --metrics-port 0 --io-threads 1 --transport epoll \
    --tls-port 0 --tls-cert "$OUT/server.crt" --tls-key "$OUT/server.key" --tls-provider "$2" \
    > "$OUT/$1.out" 2> "$OUT/$1.err" &
  PIDS+=($!)
  for _ in $(seq 100); do grep -q "listening metrics" "$OUT/$1.out" 2>/dev/null && break; sleep 0.1; done
}
port() { sed -n "s/^listening $2 .*:\([0-9]*\)\$/\1/p" "$OUT/$1.out"; }
metrics() { sed -n 's/^listening metrics \(.*\)$/\1/p' "$OUT/$1.out"; }

start openssl openssl
start jdk jdk
summary='import json,sys
d=json.load(sys.stdin); lat=d["latency_us"]; srv=d.get("server") or {}
print("qps %.0f p50 %d p99 %d server_cpu_max %s bad %d errors %d" % (d["qps"], lat["p50"], lat["p99"],
      srv.get("cpu_max", "?"), d["bad"], d["errors"]))'
for round in $(seq "$ROUNDS"); do
  for contender in plain tls-openssl tls-jdk; do
    case $contender in
      plain) target=$(port openssl tcp); server=openssl; tls=();;
      tls-openssl) target=$(port openssl tls); server=openssl; tls=(--tls --tls-ca "$OUT/server.crt");;
      tls-jdk) target=$(port jdk tls); server=jdk; tls=(--tls --tls-ca "$OUT/server.crt");;
    esac
    for depth in 1 16; do
      echo "round $round $contender echo 100x${depth}x64: $(java -jar "$LOAD" echo --target "127.0.0.1:$target" \
        "${tls[@]}" --connections 100 --pipeline "$depth" --size 64 --duration 5s --warmup 2s \
        --scrape "$(metrics $server)" --json 2>/dev/null | python3 -c "$summary")"
    done
  done
  for server in openssl jdk; do
    echo "round $round tls-$server crr 10: $(java -jar "$LOAD" crr --target "127.0.0.1:$(port $server tls)" --tls \
      --tls-ca "$OUT/server.crt" --concurrency 10 --duration 5s --scrape "$(metrics $server)" --json 2>/dev/null \
      | python3 -c "$summary")"
  done
done
