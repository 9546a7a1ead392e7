#!/usr/bin/env bash
# TLS handshakes per second, full and resumed: crr --tls (a new connection, handshake, one verified echo per
# transaction) against an echo-server on OpenSSL and one on the JDK's provider, each with one epoll I/O thread;
# then the same with --tls-resume, where each transaction offers the session of an earlier one. 10 transactions
# at once, 5 s after a 2 s warmup; the client runs on OpenSSL. Rounds interleave the contenders. Each line:
# round, server provider, full or resumed, transactions per second, p50 and p99 of the transaction and of the
# handshake in microseconds, the server's CPU (largest per-interval process_cpu_usage, a share of
# both cores).
#
# usage: bench/tls-handshakes.sh [ROUNDS]       (needs: mvn -B -ntp -DskipTests package)
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-3}
OUT=target/bench/tls-handshakes
mkdir -p "$OUT"
SERVER=echo-server/target/echo-server.jar
LOAD=load-generator/target/load-generator.jar
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -keyout "$OUT/server.key" \
  -out "$OUT/server.crt" -subj "/CN=localhost" -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" 2>/dev/null
PIDS=()
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true' EXIT

start() { # provider
  java -jar "$SERVER" --tcp-port 0 --udp-port -1 --rpc-port -1 --metrics-port 0 --io-threads 1 --transport epoll \
    --tls-port 0 --tls-cert "$OUT/server.crt" --tls-key "$OUT/server.key" --tls-provider "$1" \
    > "$OUT/$1.out" 2> "$OUT/$1.err" &
  PIDS+=($!)
  for _ in $(seq 100); do grep -q "listening metrics" "$OUT/$1.out" 2>/dev/null && break; sleep 0.1; done
}
port() { sed -n "s/^listening tls .*:\([0-9]*\)\$/\1/p" "$OUT/$1.out"; }
metrics() { sed -n 's/^listening metrics \(.*\)$/\1/p' "$OUT/$1.out"; }

start openssl
start jdk
summary='import json,sys
d=json.load(sys.stdin); lat=d["latency_us"]; srv=d.get("server") or {}
h=d["handshake_time_us"]
print("tps %.0f p50 %d p99 %d handshake_p50 %d handshake_p99 %d server_cpu_max %s bad %d errors %d" % (d["qps"],
      lat["p50"], lat["p99"], h["p50"], h["p99"], srv.get("cpu_max", "?"), d["bad"], d["errors"]))'
for round in $(seq "$ROUNDS"); do
  for server in openssl jdk; do
    for kind in full resumed; do
      resume=()
      [ "$kind" = resumed ] && resume=(--tls-resume)
      echo "round $round $server $kind: $(java -jar "$LOAD" crr --target "127.0.0.1:$(port $server)" --tls \
        --tls-ca "$OUT/server.crt" "${resume[@]}" --concurrency 10 --duration 5s --warmup 2s \
        --scrape "$(metrics $server)" --json 2>/dev/null | python3 -c "$summary")"
    done
  done
done
