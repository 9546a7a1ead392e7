#!/usr/bin/env bash
# Heap of the load generator while `massive` holds N connections (one request per 1000 s each), after two
# full GCs, against an echo server of its own. Run it for a small and a large N and divide the difference:
#   bench/generator-heap-per-connection.sh 100; bench/generator-heap-per-connection.sh 10100
# (LOADGEN_JAR=path picks another build's jar, to compare two.)
# Needs the built jars (mvn -B -ntp -DskipTests package).
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:?connections}
mkdir -p target
java -jar echo-server/target/echo-server.jar --tcp-port 0 --udp-port -1 --metrics-port -1 --idle-timeout 10m --io-threads 1 > target/gh-srv.out 2>/dev/null &
S=$!
sleep 1.5
PORT=$(sed -n 's/^listening tcp .*:\([0-9]*\)$/\1/p' target/gh-srv.out)
java -XX:+StartAttachListener -XX:+UseSerialGC -Xms512m -Xmx512m -jar ${LOADGEN_JAR:-load-generator/target/load-generator.jar} massive --target 127.0.0.1:$PORT --connections $N --connect-rate 10000 --per-connection-rate 0.001/s --duration 12s --io-threads 1 > /dev/null 2>target/gh-gen.err &
G=$!
sleep 8
jcmd $G GC.run > /dev/null; jcmd $G GC.run > /dev/null
jcmd $G GC.heap_info | grep -E "def new|tenured" | awk '{print}'
# The bytes of live objects a class histogram counts (it runs a full GC itself): this figure repeats to the byte. With
# CLASSES=FILE the whole histogram is kept there too, to diff two runs class by class.
jmap -histo:live $G > target/gh-histo.txt
[ -z "${CLASSES:-}" ] || cp target/gh-histo.txt "$CLASSES"
echo "live objects $(awk '/^Total/ {print $3}' target/gh-histo.txt) bytes"
wait $G || true
kill $S; wait $S 2>/dev/null || true
