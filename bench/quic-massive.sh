#!/usr/bin/env bash
# QUIC connections held past the per-process open-file limit: one echo-server (--io-threads 1, --max-connections 40k)
# serving QUIC, and one load-generator `massive --transport quic` holding N connections for HOLD seconds at the
# default per-connection rate, every reply verified. QUIC connections share one UDP socket per I/O thread on both
# ends, so neither process spends a descriptor on each: N may pass the about 19,000 TCP connections one process holds
# here. Prints the run's summary, the connect times and the server's peak RSS (VmHWM).
#
# usage: bench/quic-massive.sh [N] [HOLD_SECONDS] [CONNECT_RATE]   (defaults 25000 10 700)
# Needs the built jars (mvn -B -ntp -DskipTests package) and openssl. Writes target/bench/quic-massive/.
# One server core makes about 1,000 full handshakes a second here; a connect rate near that times out connects.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-25000}
HOLD=${2:-10}
RATE=${3:-700}
OUT=target/bench/quic-massive
rm -rf "$OUT"; mkdir -p "$OUT"

SERVER=
trap 'kill $SERVER 2>/dev/null || true; wait 2>/dev/null || true' EXIT
. bench/quic-echo-server.sh
start_quic_echo_server "$OUT" --idle-timeout 5m --max-connections 40k
# The ramp takes N / RATE seconds; the warmup covers it so that only the hold is measured.
WARMUP=$(( N / RATE + 5 ))
echo "# $(date -u +%FT%TZ) commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown): echo-server pid $SERVER" \
  "quic $QUIC; massive --transport quic --connections $N --connect-rate $RATE --warmup ${WARMUP}s --duration ${HOLD}s"
java -jar load-generator/target/load-generator.jar massive --transport quic --target "$QUIC" --insecure \
  --connections "$N" --connect-rate "$RATE" --warmup "${WARMUP}s" --duration "${HOLD}s" --json \
  > "$OUT/massive.json" 2> "$OUT/massive.err" || true
python3 - "$OUT/massive.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
print("summary:", {k: s.get(k) for k in ("connections", "ok", "bad", "errors", "qps", "connect_failures")})
c = s.get("connect_time_us") or {}
print("connect_time_us:", {k: c.get(k) for k in ("count", "p50", "p99", "max")})
PY
echo "server VmHWM: $(awk '/VmHWM/ {print $2, $3}' /proc/$SERVER/status)"
