#!/usr/bin/env bash
# Issue 31, fault 3: what one spoofed QUIC Initial brings back, for one or more echo-server jars, each on a fresh
# server with a throwaway P-256 certificate (the small one, which left quiche room to pass its limit). Per jar, the
# bench/hostile/QuicAmplification.java probes (a 1,200-byte Initial and the same cut to its own length, neither ever
# acknowledged) and the server's drop counters. To compare with the code before the fix, build that commit's jar:
#
#   git worktree add /tmp/ricochet-before 8a01ac8 && (cd /tmp/ricochet-before && mvn -B -ntp -q -DskipTests -Djmh.skip package)
#   bench/quic-amplification.sh /tmp/ricochet-before/echo-server/target/echo-server.jar echo-server/target/echo-server.jar
#
# usage: bench/quic-amplification.sh [ECHO_SERVER_JAR ...]   (default: this tree's); SECONDS_EACH=40 by default
set -euo pipefail
cd "$(dirname "$0")/.."
JARS=("$@")
[ ${#JARS[@]} -gt 0 ] || JARS=(echo-server/target/echo-server.jar)
SECONDS_EACH=${SECONDS_EACH:-40}
OUT=target/bench/quic-amplification
mkdir -p "$OUT"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=localhost \
  -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" -keyout "$OUT/key.pem" -out "$OUT/cert.pem" 2> /dev/null

PID=
stop() { [ -z "$PID" ] || { kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; }; PID=; }
trap stop EXIT

for jar in "${JARS[@]}"; do
  echo "== $jar"
  java -jar "$jar" --tcp-port -1 --udp-port 0 --rpc-port -1 --metrics-port 0 --io-threads 1 --quic-port 0 \
    --tls-cert "$OUT/cert.pem" --tls-key "$OUT/key.pem" > "$OUT/server.out" 2> "$OUT/server.err" &
  PID=$!
  for _ in $(seq 300); do grep -q "listening metrics" "$OUT/server.out" 2>/dev/null && break; sleep 0.1; done
  QUIC=$(sed -n 's/^listening quic \(.*\)$/\1/p' "$OUT/server.out")
  METRICS=$(sed -n 's/^listening metrics \(.*\)$/\1/p' "$OUT/server.out")
  java -cp "$jar" bench/hostile/QuicAmplification.java "$QUIC" "$SECONDS_EACH"
  curl -s --max-time 5 "$METRICS" | grep '^ricochet_datagrams_dropped_total{.*protocol="quic"' || true
  stop
done
