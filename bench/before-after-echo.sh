#!/usr/bin/env bash
# Two echo-server jars (say, before and after a change) under the same load generator, rounds interleaved:
# each server in its own JVM with one I/O thread on the same transport, 100 connections x 16 and x 1 in
# flight, 64 B bodies, 5 s measured after a 2 s warmup. Prints one line per round, server and shape:
# QPS, bad replies, errors. Take the median and range over the rounds. With ENCRYPT=package or stream, the
# load goes to each server's Noise port instead (its handshakes over within the warmup), in that mode; with
# ENCRYPT=tls, to a TLS 1.3 port on a throwaway certificate, served by TLS_PROVIDER (openssl, the default, or jdk).
#
# BEFORE_JAVA and AFTER_JAVA (default: java) run each server on a JVM of its own: the same jar twice, on JDK 17 and
# on a newer one, compares runtimes. The generator runs on LOAD_JAVA (default: java); LOAD_JAVA=same runs it on
# the JVM of the server it loads, so each side is the whole stack on one runtime, as in an image.
#
# usage: [ENCRYPT=package|stream|tls] [TLS_PROVIDER=openssl|jdk] [BEFORE_JAVA=...] [AFTER_JAVA=...] [LOAD_JAVA=...|same]
#        bench/before-after-echo.sh BEFORE_JAR AFTER_JAR [ROUNDS] [TRANSPORT]
# Needs the built load generator (mvn -B -ntp -DskipTests package).
set -euo pipefail
cd "$(dirname "$0")/.."
BEFORE=$1
AFTER=$2
ROUNDS=${3:-3}
TRANSPORT=${4:-epoll}
ENCRYPT=${ENCRYPT:-}
OUT=target/bench
mkdir -p "$OUT"
if [ "$ENCRYPT" = tls ]; then
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -keyout "$OUT/before-after.key" \
    -out "$OUT/before-after.crt" -subj "/CN=localhost" -addext "subjectAltName=IP:127.0.0.1" 2>/dev/null
fi
PID=
trap '[ -n "$PID" ] && kill $PID 2>/dev/null; wait 2>/dev/null || true' EXIT
for round in $(seq "$ROUNDS"); do
  for which in before after; do
    jar=$BEFORE; jvm=${BEFORE_JAVA:-java}
    [ $which = after ] && jar=$AFTER && jvm=${AFTER_JAVA:-java}
    load=${LOAD_JAVA:-java}
    [ "$load" = same ] && load=$jvm
    listener=tcp; serving=(); security=()
    case $ENCRYPT in
      "") ;;
      tls) listener=tls
        serving=(--tls-port 0 --tls-cert "$OUT/before-after.crt" --tls-key "$OUT/before-after.key"
          --tls-provider "${TLS_PROVIDER:-openssl}")
        security=(--tls --tls-ca "$OUT/before-after.crt");;
      *) listener=noise; serving=(--noise-port 0);;
    esac
    "$jvm" -jar "$jar" --tcp-port 0 --udp-port -1 --rpc-port -1 --metrics-port -1 --io-threads 1 \
      --transport "$TRANSPORT" "${serving[@]}" > "$OUT/before-after.out" 2> "$OUT/before-after.err" &
    PID=$!
    for _ in $(seq 100); do grep -q "listening $listener" "$OUT/before-after.out" 2>/dev/null && break; sleep 0.1; done
    port=$(sed -n "s/^listening $listener .*:\([0-9]*\)\$/\1/p" "$OUT/before-after.out")
    [ "$listener" = noise ] && security=(--noise-key "$(sed -n 's/^noise public-key //p' "$OUT/before-after.out")" \
      --encrypt "$ENCRYPT")
    for depth in 16 1; do
      result=$("$load" -jar load-generator/target/load-generator.jar echo --target "127.0.0.1:$port" --connections 100 \
        "${security[@]}" --pipeline "$depth" --size 64 --duration 5s --warmup 2s --json 2>/dev/null \
        | python3 -c 'import json,sys; d=json.load(sys.stdin); print("qps %.0f bad %d errors %d" % (d["qps"], d["bad"], d["errors"]))')
      echo "round $round $which 100x${depth}x64: $result"
    done
    kill $PID; wait $PID 2>/dev/null || true
    PID=
  done
done
