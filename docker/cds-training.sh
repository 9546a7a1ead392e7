#!/bin/sh
# Run by the Dockerfile as it builds the image: one short training run of each jar, which writes the classes it loaded
# to an application class-data archive (JDK 13+ dynamic AppCDS) in /app/cds. A JVM started with
# -XX:SharedArchiveFile=/app/cds/<jar>.jsa maps them instead of loading, verifying and linking them one by one: the
# echo server listens 0.2 s sooner and reaches 95% of its steady rate about 0.4 s sooner, the load generator starts
# its load 0.15 s sooner (bench/warmup.sh, docs/performance.md). An archive holds only for the JVM that wrote it and
# the same jar at the same path, and for a heap under 32 GiB (compressed oops), so it is made here, in the image, with
# the options the image's commands use; a JVM that cannot use it (another JVM, another class path, a heap of 32 GiB or
# more) starts without it, as fast as before, and says nothing (a changed jar gets a warning on stderr).
set -eu
# The heap is pinned, not a share of the build machine's memory: an archive holds only for JVMs with compressed oops
# as the training run had them, which a heap over 32 GiB (40% of a builder with 80 GiB) would turn off.
JAVA="java -XX:+UseParallelGC -Xmx256m -Djava.library.path=/app/native"
mkdir -p /app/cds
log=$(mktemp)
$JAVA -XX:ArchiveClassesAtExit=/app/cds/echo-server.jsa -jar /app/echo-server.jar --host 127.0.0.1 --tcp-port 0 \
  --udp-port -1 --rpc-port -1 --metrics-port -1 > "$log" 2>&1 &
server=$!
tries=0
until grep -q '^listening tcp' "$log"; do
  tries=$((tries + 1))
  if [ $tries -gt 600 ] || ! kill -0 $server 2>/dev/null; then
    cat "$log" >&2
    exit 1
  fi
  sleep 0.1
done
port=$(sed -n 's/^listening tcp .*:\([0-9]*\)$/\1/p' "$log")
$JAVA -XX:ArchiveClassesAtExit=/app/cds/load-generator.jsa -jar /app/load-generator.jar echo \
  --target "127.0.0.1:$port" --connections 16 --pipeline 4 --duration 3s --warmup 1s > /dev/null
# A stopped server exits through its shutdown hook, and the JVM writes its archive on the way out.
kill $server
wait $server || true
rm -f "$log"
chmod 0444 /app/cds/echo-server.jsa /app/cds/load-generator.jsa
chmod 0755 /app/cds
