#!/usr/bin/env bash
# How long a controller run with 4 local workers takes to reach its start barrier, for two load-generator jars
# (say, before and after a change), rounds interleaved: seconds from the controller's start to its line
# "controller: all 4 workers ready; started", which it prints once every worker JVM has connected, fetched its shard
# and made its workload. Each run is then a short echo against the embedded server. Take the median and range.
#
# usage: bench/controller-start-barrier.sh BEFORE_JAR AFTER_JAR [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
BEFORE=$1
AFTER=$2
ROUNDS=${3:-5}
barrier() {
  python3 - "$1" <<'PY'
import subprocess, sys, time
start = time.monotonic()
p = subprocess.Popen(["java", "-jar", sys.argv[1], "controller", "--workers", "4", "echo", "--connections", "40",
                      "--duration", "2s", "--json"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
seen = None
for line in p.stderr:
    if seen is None and "workers ready; started" in line:
        seen = time.monotonic() - start
p.wait()
print("barrier %.2f s exit %d" % (seen if seen is not None else float("nan"), p.returncode))
PY
}
for round in $(seq "$ROUNDS"); do
  echo "round $round before: $(barrier "$BEFORE")"
  echo "round $round after: $(barrier "$AFTER")"
done
