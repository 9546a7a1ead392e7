#!/usr/bin/env bash
# QUIC_CRR against TCP_CRR over TLS (issue 16): one echo-server process (--io-threads 1) serving its TLS port and its
# QUIC port with the same certificate; the load generator's crr (connect, one verified request, close, per
# transaction) over each, with a full handshake per transaction, with resumed sessions, and, over QUIC, with each
# request sent as 0-RTT early data. Rounds interleaved. Prints each contender's median (range) transactions/s, the
# ratios taken round by round, and each run's p50 and p99 (connect to verified reply) and, over QUIC, how many
# connections sent their request as 0-RTT early data (the generator keeps one session ticket per target, so
# transactions in progress at once take turns with it: the others make full handshakes).
#
# usage: bench/quic-crr.sh [ROUNDS] [SECONDS] [CONCURRENCY]
# Needs the built jars (mvn -B -ntp -DskipTests package) and openssl. Writes target/bench/quic-crr/.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-3}
SECS=${2:-5}
CONC=${3:-16}
OUT=target/bench/quic-crr
rm -rf "$OUT"; mkdir -p "$OUT"
LG="java -jar load-generator/target/load-generator.jar"

SERVER=
trap 'kill $SERVER 2>/dev/null || true; wait 2>/dev/null || true' EXIT
. bench/quic-echo-server.sh
start_quic_echo_server "$OUT" --tls-port 0
echo "echo-server pid $SERVER: tls $TLS, quic $QUIC" >&2

run() { # CONTENDER -> tps p50_us p99_us bad+errors early/quic-connections
  local flags
  case $1 in
    tls-full) flags=(--tls --target "$TLS") ;;
    tls-resumed) flags=(--tls --tls-resume --target "$TLS") ;;
    quic-full) flags=(--transport quic --target "$QUIC") ;;
    quic-resumed) flags=(--transport quic --tls-resume --target "$QUIC") ;;
    quic-0rtt) flags=(--transport quic --early-data --target "$QUIC") ;;
  esac
  $LG crr "${flags[@]}" --insecure --io-threads 1 --concurrency "$CONC" --size 64 --warmup 1s \
    --duration "${SECS}s" --json 2> "$OUT/last.err" \
    | python3 -c 'import json,sys; s=json.load(sys.stdin); l=s["latency_us"]; e=s.get("early_data"); print(round(s["qps"]), l["p50"], l["p99"], s["bad"] + s["errors"], "%d/%d" % (e["early"], e["connections"]) if e else "-")'
}
CONTENDERS=(tls-full quic-full tls-resumed quic-resumed quic-0rtt)
# Warm every path's JIT before measuring.
for c in "${CONTENDERS[@]}"; do run "$c" > /dev/null; done
RUNS="$OUT/runs.txt"
for r in $(seq "$ROUNDS"); do
  for c in "${CONTENDERS[@]}"; do
    read -r TPS P50 P99 BAD EARLY <<< "$(run "$c")"
    echo "$r crr-c${CONC}x64 $c $TPS" | tee -a "$RUNS"
    echo "# round $r $c p50 ${P50}us p99 ${P99}us bad+errors $BAD 0-RTT $EARLY" >> "$RUNS"
  done
done
{
  echo "# $(date -u +%FT%TZ) commit $(git rev-parse --short HEAD), $(nproc) cores, echo-server --io-threads 1, generator --io-threads 1, concurrency $CONC, ${SECS}s runs"
  python3 bench/ratio-summary.py --ratio quic-full/tls-full --ratio quic-resumed/tls-resumed \
    --ratio quic-resumed/quic-full --ratio quic-0rtt/quic-full --ratio quic-0rtt/quic-resumed "$RUNS"
  grep "^# round" "$RUNS"
} | tee "$OUT/table.txt"
