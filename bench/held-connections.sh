#!/usr/bin/env bash
# Held connections at scale on one machine (issue 14): ceil(N/18,000) echo-server processes share one port with
# --reuse-port, and the controller spreads N connections over as many local workers, each from its own two loopback
# source addresses (28K ephemeral ports each). Every connection must be established, hold for HOLD seconds at
# RATE requests/s (FPNN's massive shape, 0.04..1), and have every request answered and verified.
# Measured once the ramp is done, inside the warmup so no latency is recorded meanwhile: heap after a full GC and RSS
# of every server and worker, before the load and while holding, and the kernel's memory for the sockets: the growth of
# its slab caches (/proc/meminfo Slab), since /proc/net/sockstat's counters read ~0 on this machine's kernel.
# usage: bench/held-connections.sh N [HOLD_SECONDS] [RATE_PER_CONNECTION]
#   env: CONNECT_RATE (total connects/s, default 5000), TIMEOUT (a reply later than this is an error and its connection
#   is dropped and opened again, default 10s), WARMUP (seconds, default from the ramp), SERVER_HEAP (default 256m),
#   WORKER_HEAP (default 384m)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:?usage: bench/held-connections.sh N [HOLD_SECONDS] [RATE_PER_CONNECTION]}
HOLD=${2:-30}
RATE=${3:-0.1}
CONNECT_RATE=${CONNECT_RATE:-5000}
PER_PROCESS=18000
PROCS=$(( (N + PER_PROCESS - 1) / PER_PROCESS ))
RAMP=$(( (N + CONNECT_RATE - 1) / CONNECT_RATE ))
# Long enough for the ramp (on 2 cores it runs at about a third of the asked rate), the connect retries of a full
# backlog, and the measurements below (about 5 s per process), none of it counted.
MEASURING=$(( PROCS * 2 * 5 + 10 ))
WARMUP=${WARMUP:-$(( RAMP * 4 + 30 + MEASURING ))}
OUT=target/bench/held-$N
rm -rf "$OUT"; mkdir -p "$OUT"
JVM_SMALL="-XX:+UseSerialGC -XX:ActiveProcessorCount=1 -Xss256k -XX:ReservedCodeCacheSize=48m -XX:MaxMetaspaceSize=96m"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

SERVERS=()
cleanup() {
  for pid in "${SERVERS[@]}" ${CONTROLLER:-}; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT

heap_kb() { # PID -> heap used after a full GC, KiB
  jcmd "$1" GC.run > /dev/null
  jcmd "$1" GC.heap_info | awk '/generation|space/ && /used/ {
    for (i = 1; i <= NF; i++) if ($i == "used") { v = $(i + 1); gsub(/[K,]/, "", v); s += v } } END { print s + 0 }'
}
rss_kb() { ps -o rss= -p "$1" | tr -d ' '; }
sum_over() { # FUNCTION PID... -> sum
  local f=$1 total=0; shift
  for pid in "$@"; do total=$(( total + $($f "$pid") )); done
  echo "$total"
}
slab_kb() { awk '/^Slab:/ { print $2 }' /proc/meminfo; }

echo "held-connections: $N connections, $PROCS server process(es) on 127.0.0.1:$PORT with --reuse-port, $PROCS worker(s)"
SCRAPE=()
for i in $(seq "$PROCS"); do
  java -Xms32m -Xmx"${SERVER_HEAP:-256m}" $JVM_SMALL -jar echo-server/target/echo-server.jar --reuse-port \
    --tcp-port "$PORT" --udp-port -1 --rpc-port -1 --metrics-port 0 --io-threads 1 --idle-timeout 10m \
    > "$OUT/server-$i.out" 2> "$OUT/server-$i.err" &
  SERVERS+=($!)
done
for i in $(seq "$PROCS"); do
  for _ in $(seq 300); do grep -q "listening metrics" "$OUT/server-$i.out" 2>/dev/null && break; sleep 0.1; done
  SCRAPE+=("$(sed -n 's/^listening metrics \(http:.*\)$/\1/p' "$OUT/server-$i.out")")
done
SLAB0=$(slab_kb)
SERVER_HEAP0=$(sum_over heap_kb "${SERVERS[@]}")
SERVER_RSS0=$(sum_over rss_kb "${SERVERS[@]}")

# A worker's own base, without connections: the same JVM holding one connection, measured alone and ended.
WORKER_JVM="-Xms32m -Xmx${WORKER_HEAP:-384m} $JVM_SMALL"
java $WORKER_JVM -jar load-generator/target/load-generator.jar massive --target "127.0.0.1:$PORT" --connections 1 \
  --per-connection-rate 1/s --duration 10m > /dev/null 2>&1 &
BASE=$!
for _ in $(seq 300); do
  [ "$(ss -Htn state established "( sport = :$PORT )" | wc -l)" -ge 1 ] && jcmd "$BASE" VM.uptime > /dev/null 2>&1 && break
  sleep 0.1
done
WORKER_BASE_HEAP=$(heap_kb "$BASE")
WORKER_BASE_RSS=$(rss_kb "$BASE")
kill "$BASE"; wait "$BASE" 2>/dev/null || true

LAST=$(( 1 + 2 * PROCS ))
java -Xmx512m -XX:+UseSerialGC -jar load-generator/target/load-generator.jar controller --workers "$PROCS" \
  --worker-jvm-args "$WORKER_JVM" \
  massive --target "127.0.0.1:$PORT" --source-addresses "127.0.0.2-127.0.0.$LAST" --connections "$N" \
  --connect-rate "$CONNECT_RATE/s" --per-connection-rate "$RATE/s" --warmup "${WARMUP}s" --duration "${HOLD}s" \
  --timeout "${TIMEOUT:-10s}" --json --report "$OUT/report" --scrape "$(IFS=,; echo "${SCRAPE[*]}")" \
  > "$OUT/summary.json" 2> "$OUT/controller.err" &
CONTROLLER=$!

for _ in $(seq 600); do
  mapfile -t WORKERS < <(pgrep -P "$CONTROLLER" java || true)
  [ "${#WORKERS[@]}" -ge "$PROCS" ] && break; sleep 0.1
done

started=$(date +%s)
while :; do
  held=$(ss -Htn state established "( sport = :$PORT )" | wc -l)
  [ "$held" -ge "$N" ] && break
  if [ $(( $(date +%s) - started )) -gt $(( WARMUP - MEASURING )) ]; then
    echo "only $held of $N connections established before the warmup's end" >&2; break
  fi
  sleep 1
done
ramped=$(( $(date +%s) - started ))
SLAB1=$(slab_kb)
SERVER_HEAP1=$(sum_over heap_kb "${SERVERS[@]}")
SERVER_RSS1=$(sum_over rss_kb "${SERVERS[@]}")
WORKER_HEAP1=$(sum_over heap_kb "${WORKERS[@]}")
WORKER_RSS1=$(sum_over rss_kb "${WORKERS[@]}")
echo "all $held connections established about ${ramped}s after the workers started; measuring done at $(( $(date +%s) - started ))s of a ${WARMUP}s warmup"

wait "$CONTROLLER" && status=0 || status=$?
CONTROLLER=
python3 - "$OUT/summary.json" "$N" "$held" "$status" "$RATE" "$HOLD" \
  "$SERVER_HEAP0" "$SERVER_HEAP1" "$SERVER_RSS0" "$SERVER_RSS1" "$(( WORKER_BASE_HEAP * PROCS ))" "$WORKER_HEAP1" \
  "$(( WORKER_BASE_RSS * PROCS ))" "$WORKER_RSS1" "$SLAB0" "$SLAB1" "$PROCS" <<'EOF' | tee "$OUT/table.md"
import json, sys
(path, n, held, status, rate, hold, sh0, sh1, sr0, sr1, wh0, wh1, wr0, wr1, slab0, slab1, procs) = sys.argv[1:]
n, held, procs = int(n), int(held), int(procs)
s = json.load(open(path))
m = s.get("merged", s)
per = lambda a, b: (int(b) - int(a)) * 1024 / held
ct, lat = m["connect_time_us"], m["latency_us"]
expected = n * float(rate) * float(hold)
rows = [
    ("connections asked / established (ss) / peak reported", f"{n:,} / {held:,} / {m['connections']:,}"),
    ("connect failures", f"{m['connect_failures']:,}"),
    ("requests sent in the hold / ok / bad / errors", f"{m['requests']:,} / {m['ok']:,} / {m['bad']:,} / {m['errors']:,}"
        f" ({expected:,.0f} expected at {rate}/s for {hold}s)"),
    ("connect time p50 / p99 / max (ms)", f"{ct['p50']/1000:.1f} / {ct['p99']/1000:.1f} / {ct['max']/1000:.1f}"),
    ("echo latency p50 / p99 / max (ms), " + m["latency_kind"],
        f"{lat['p50']/1000:.2f} / {lat['p99']/1000:.2f} / {lat['max']/1000:.2f}"),
    (f"server heap per connection ({procs} processes, after full GC)", f"{per(sh0, sh1):,.0f} B"),
    ("server RSS per connection", f"{per(sr0, sr1):,.0f} B"),
    (f"generator heap per connection ({procs} workers, after full GC, less an idle worker's)", f"{per(wh0, wh1):,.0f} B"),
    ("generator RSS per connection (less an idle worker's)", f"{per(wr0, wr1):,.0f} B"),
    ("idle worker RSS / server RSS before connections (per process)", f"{int(wr0) / procs / 1024:,.0f} MiB / "
        f"{int(sr0) / procs / 1024:,.0f} MiB"),
    ("kernel slab memory per connection (both ends' sockets)", f"{per(slab0, slab1):,.0f} B"),
    ("server CPU peak (all processes, of one core each) / frames sent, summed over the servers",
        f"{(m.get('server') or {}).get('cpu_max')} / {(m.get('server') or {}).get('frames_sent')}"),
    ("exit status / first error", f"{status} / {m.get('first_error')}"),
]
print("| measure | value |\n|---|---:|", flush=True)
for k, v in rows:
    print(f"| {k} | {v} |")
ok = int(status) == 0 and held >= n and m["connect_failures"] == 0 and m["bad"] == 0 and m["errors"] == 0 \
    and m["ok"] == m["requests"] and m["ok"] >= 0.95 * expected
print("\nPASS" if ok else "\nFAIL", file=sys.stderr)
sys.exit(0 if ok else 1)
EOF
