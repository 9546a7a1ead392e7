#!/usr/bin/env bash
# FPNN's encryption table, side by side in one run: plaintext, TLS on OpenSSL (BoringSSL) and on the JDK's
# provider, and the Noise channel in package and stream mode, each encrypted one with 128- and 256-bit AES-GCM
# keys; at 100 and 1,000 connections, closed loop (one request in flight per connection) and pipelined (16);
# 64-byte bodies, 4 s measured after a warmup of 3 s (100 connections) or 8 s (1,000: their handshakes, about
# 1 ms of CPU on each side for Noise, must be over before the measurement), every reply verified.
#
# Two echo-servers, one I/O thread each (epoll), so the load generator (one I/O thread too) has the other core:
# "openssl" serves the plaintext, TLS (OpenSSL) and Noise ports, "jdk" a TLS port on the JDK's provider. The
# client pins the key length with --key-bits: for TLS its BoringSSL client then offers the TLS 1.2 ECDHE
# AES-GCM suite of that length only (BoringSSL cannot restrict TLS 1.3 suites); the suite agreed is printed.
#
# Rounds interleave the contenders. Each line: round, contender, shape, QPS, p50 and p99 in microseconds, the
# server's CPU (largest per-interval process_cpu_usage, a share of both cores), bad replies, errors.
# bench/fpnn-table-summary.py turns the lines into the table in docs/perf/history.md: the median and range
# over rounds, and each cell's ratio to plaintext in the same round.
#
# usage: bench/fpnn-encryption-table.sh [ROUNDS] > raw.txt   (needs: mvn -B -ntp -DskipTests package)
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-3}
OUT=target/bench/fpnn
mkdir -p "$OUT"
SERVER=echo-server/target/echo-server.jar
LOAD=load-generator/target/load-generator.jar
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -keyout "$OUT/server.key" \
  -out "$OUT/server.crt" -subj "/CN=localhost" -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" 2>/dev/null
rm -f "$OUT/noise.key"
PIDS=()
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true' EXIT

start() { # name provider [extra flags]
  local name=$1 provider=$2
  shift 2
  java -jar "$SERVER" --tcp-port 0 --udp-port -1 --rpc-port -1 --metrics-port 0 --io-threads 1 --transport epoll \
    --tls-port 0 --tls-cert "$OUT/server.crt" --tls-key "$OUT/server.key" --tls-provider "$provider" "$@" \
    > "$OUT/$name.out" 2> "$OUT/$name.err" &
  PIDS+=($!)
  for _ in $(seq 100); do grep -q "listening metrics" "$OUT/$name.out" 2>/dev/null && break; sleep 0.1; done
}
port() { sed -n "s/^listening $2 .*:\([0-9]*\)\$/\1/p" "$OUT/$1.out"; }
metrics() { sed -n 's/^listening metrics \(.*\)$/\1/p' "$OUT/$1.out"; }

start openssl openssl --noise-port 0 --noise-key "$OUT/noise.key" --noise-generate-key
start jdk jdk
NOISE_KEY=$(sed -n 's/^noise public-key //p' "$OUT/openssl.out")
summary='import json,sys
d=json.load(sys.stdin); lat=d["latency_us"]; srv=d.get("server") or {}
print("qps %.0f p50 %d p99 %d server_cpu_max %s bad %d errors %d suite %s" % (d["qps"], lat["p50"], lat["p99"],
      srv.get("cpu_max", "?"), d["bad"], d["errors"], (d.get("tls_session") or "-").replace(" ", "_")))'
CONTENDERS="plain tls-openssl-128 tls-openssl-256 tls-jdk-128 tls-jdk-256 noise-package-128 noise-package-256
  noise-stream-128 noise-stream-256"
for round in $(seq "$ROUNDS"); do
  for contender in $CONTENDERS; do
    bits=${contender##*-}
    case $contender in
      plain) server=openssl; target=$(port openssl tcp); security=();;
      tls-openssl-*) server=openssl; target=$(port openssl tls)
        security=(--tls --tls-ca "$OUT/server.crt" --tls-provider openssl --key-bits "$bits");;
      tls-jdk-*) server=jdk; target=$(port jdk tls)
        security=(--tls --tls-ca "$OUT/server.crt" --tls-provider openssl --key-bits "$bits");;
      noise-*) server=openssl; target=$(port openssl noise); mode=${contender#noise-}; mode=${mode%-*}
        security=(--noise-key "$NOISE_KEY" --encrypt "$mode" --key-bits "$bits");;
    esac
    for connections in 100 1000; do
      warmup=$((connections >= 1000 ? 8 : 3))
      for depth in 1 16; do
        echo "round $round $contender ${connections}x${depth}: $(java -jar "$LOAD" echo --target "127.0.0.1:$target" \
          "${security[@]}" --connections "$connections" --connect-rate 500 --pipeline "$depth" --size 64 \
          --duration 4s --warmup "${warmup}s" --timeout 10s --scrape "$(metrics $server)" --json 2>/dev/null \
          | python3 -c "$summary")"
      done
    done
  done
done
