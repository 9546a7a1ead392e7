#!/usr/bin/env bash
# Issue 31's Noise handshake flood against two echo-server jars (before and after a change), rounds interleaved:
# each round starts each jar afresh (TCP and Noise ports on the same event loops, the defaults otherwise) and runs
# bench/hostile/NoiseFlood.java against it three times, SECONDS each: no flood (the baseline), then one captured
# first message replayed from FLOOD connections in flight at once (default "8 256": the issue's one process, and
# enough at once to meet the per-address bound), while one plaintext connection does a verified round trip every
# 5 ms. Each line: round, jar, shape, the plaintext round trip's p50, p99 and max, handshakes answered and refused
# a second, the server's CPU (100 = one core, from /proc), and its shed counters from /metrics.
# bench/noise-flood-summary.py turns the lines into median (range) per jar and shape.
#
# KIND=tls floods a TLS port instead (issue 45): the message replayed is a TLS 1.3 ClientHello, each costing the
# server a key agreement and a signature; the TLS port's certificate is a throwaway one. A TLS listener sheds no
# handshake (connections past their address's turns wait), so its lines read shed=none.
#
#   bench/noise-flood.sh /work/before31/echo-server.jar echo-server/target/echo-server.jar 5 10 > raw.txt
#   KIND=tls bench/noise-flood.sh /tmp/before45.jar echo-server/target/echo-server.jar 5 10 > raw.txt
#   bench/noise-flood-summary.py raw.txt
#
# usage: [KIND=noise|tls] bench/noise-flood.sh BEFORE_JAR AFTER_JAR [ROUNDS] [SECONDS]
#        (needs: mvn -B -ntp -DskipTests package; openssl for KIND=tls)
set -euo pipefail
cd "$(dirname "$0")/.."
BEFORE=$1
AFTER=$2
ROUNDS=${3:-5}
SECONDS_EACH=${4:-10}
FLOODS=${FLOOD:-8 256}
KIND=${KIND:-noise}
OUT=target/bench/$KIND-flood
mkdir -p "$OUT"
if [ "$KIND" = tls ]; then
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -keyout "$OUT/server.key" \
    -out "$OUT/server.crt" -subj "/CN=localhost" -addext "subjectAltName=IP:127.0.0.1" 2>/dev/null
  PORT_FLAGS=(--tls-port 0 --tls-cert "$OUT/server.crt" --tls-key "$OUT/server.key")
else
  PORT_FLAGS=(--noise-port 0)
fi
PID=
trap '[ -n "$PID" ] && kill $PID 2>/dev/null; wait 2>/dev/null || true' EXIT

shed() { # metrics URL -> "shed_max_handshakes=N shed_max_handshakes_per_address=N" (none before the fix)
  curl -s --max-time 5 "$1" | awk -v kind="$KIND" '$0 ~ "^ricochet_" kind "_handshakes_shed_total\\{" {
      match($0, /reason="[a-z_]+"/); r = substr($0, RSTART + 8, RLENGTH - 9); s = s " shed_" r "=" $NF }
    END { print (s == "" ? " shed=none" : s) }'
}

for round in $(seq "$ROUNDS"); do
  for which in before after; do
    jar=$BEFORE; [ $which = after ] && jar=$AFTER
    java -jar "$jar" --tcp-port 0 --udp-port -1 --rpc-port -1 --metrics-port 0 "${PORT_FLAGS[@]}" \
      > "$OUT/server.out" 2> "$OUT/server.err" &
    PID=$!
    for _ in $(seq 600); do grep -q "listening metrics" "$OUT/server.out" 2>/dev/null && break; sleep 0.1; done
    grep -q "listening metrics" "$OUT/server.out" || { echo "$jar did not start in 60 s: $(cat "$OUT/server.err")" >&2; jstack $PID >&2; exit 1; }
    tcp=$(sed -n 's/^listening tcp \(.*\)$/\1/p' "$OUT/server.out")
    port=$(sed -n "s/^listening $KIND \\(.*\\)\$/\\1/p" "$OUT/server.out")
    key=tls
    [ "$KIND" = noise ] && key=$(sed -n 's/^noise public-key //p' "$OUT/server.out")
    metrics=$(sed -n 's/^listening metrics \(.*\)$/\1/p' "$OUT/server.out")
    for flood in 0 $FLOODS; do
      result=$(java -cp "$AFTER" bench/hostile/NoiseFlood.java "$port" "$key" "$tcp" "$SECONDS_EACH" "$flood" "$PID")
      echo "round $round $which flood=$flood $result$(shed "$metrics")"
    done
    kill $PID; wait $PID 2>/dev/null || true
    PID=
  done
done
