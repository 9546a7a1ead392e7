#!/usr/bin/env bash
# UDP peers at scale (issue 14, FPNN's UDPMassiveConnectionsTest): one echo-server process answers N UDP peers (one
# socket each, spread over local workers and source addresses) and keeps a session per peer. Checks, from the
# server's own /metrics, that the sessions reach N, that every request was answered and verified, that the sessions
# expire after --idle-timeout once the peers fall silent, and that --max-udp-sessions caps them: a second run with
# the cap at CAP (default N*4/5) must hold no more than CAP sessions.
# usage: bench/udp-peers.sh N [HOLD_SECONDS] [CAP]
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:?usage: bench/udp-peers.sh N [HOLD_SECONDS] [CAP]}
HOLD=${2:-20}
CAP=${3:-$(( N * 4 / 5 ))}
IDLE=10
PER_PROCESS=18000
WORKERS=$(( (N + PER_PROCESS - 1) / PER_PROCESS ))
LAST=$(( 1 + 2 * WORKERS ))
OUT=target/bench/udp-peers-$N
rm -rf "$OUT"; mkdir -p "$OUT"
JVM_SMALL="-XX:+UseSerialGC -XX:ActiveProcessorCount=1 -Xss256k -XX:ReservedCodeCacheSize=48m -XX:MaxMetaspaceSize=96m"
PORT=$(python3 -c 'import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
SERVER=
cleanup() { [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null; wait 2>/dev/null || true; }
trap cleanup EXIT

sessions() { # the server's live UDP sessions
  curl -s "$METRICS" | awk '/^ricochet_connections_active\{/ && /protocol="udp"/ { s += $NF } END { printf "%d\n", s }'
}
start_server() { # MAX_SESSIONS
  java -Xmx512m $JVM_SMALL -jar echo-server/target/echo-server.jar --tcp-port -1 --udp-port "$PORT" --rpc-port -1 \
    --metrics-port 0 --io-threads 1 --idle-timeout "${IDLE}s" --max-udp-sessions "$1" \
    > "$OUT/server.out" 2> "$OUT/server.err" &
  SERVER=$!
  for _ in $(seq 300); do grep -q "listening metrics" "$OUT/server.out" 2>/dev/null && break; sleep 0.1; done
  METRICS=$(sed -n 's/^listening metrics \(http:.*\)$/\1/p' "$OUT/server.out")
}
run() { # NAME -> the controller's JSON summary in $OUT/NAME.json; peak sessions in $OUT/NAME.peak
  local name=$1 peak=0 s
  java -Xmx512m -XX:+UseSerialGC -jar load-generator/target/load-generator.jar controller --workers "$WORKERS" \
    --worker-jvm-args "-Xms32m -Xmx256m $JVM_SMALL" \
    massive --transport udp --target "127.0.0.1:$PORT" --source-addresses "127.0.0.2-127.0.0.$LAST" \
    --connections "$N" --connect-rate 5000/s --per-connection-rate 0.5/s --warmup 40s --duration "${HOLD}s" \
    --timeout 5s --json --scrape "$METRICS" --report "$OUT/$name" > "$OUT/$name.json" 2> "$OUT/$name.err" &
  local controller=$!
  while kill -0 "$controller" 2>/dev/null; do
    s=$(sessions); [ "$s" -gt "$peak" ] && peak=$s
    sleep 1
  done
  wait "$controller" || true
  echo "$peak" > "$OUT/$name.peak"
}

echo "udp-peers: $N peers over $WORKERS worker(s) against one echo-server on 127.0.0.1:$PORT (udp)"
start_server 100000000
run peers
# The peers are gone: every session must expire within the idle timeout (checked on a timer of its own).
expired=-1
for _ in $(seq $(( IDLE * 3 ))); do
  left=$(sessions); [ "$left" -eq 0 ] && { expired=$SECONDS; break; }; sleep 1
done
kill "$SERVER"; wait "$SERVER" 2>/dev/null || true; SERVER=

start_server "$CAP"
run capped
kill "$SERVER"; wait "$SERVER" 2>/dev/null || true; SERVER=

python3 - "$OUT" "$N" "$CAP" "$(cat "$OUT/peers.peak")" "$(cat "$OUT/capped.peak")" "$left" <<'EOF' | tee "$OUT/table.md"
import json, sys
out, n, cap, peak, capped_peak, left = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
runs = {name: json.load(open(f"{out}/{name}.json"))["merged"] for name in ("peers", "capped")}
p, c = runs["peers"], runs["capped"]
print("| measure | value |\n|---|---:|", flush=True)
print(f"| UDP peers asked / peak server sessions | {n:,} / {peak:,} |")
print(f"| requests in the hold / ok / bad / errors | {p['requests']:,} / {p['ok']:,} / {p['bad']:,} / {p['errors']:,} |")
print(f"| echo latency p50 / p99 (ms), {p['latency_kind']} | {p['latency_us']['p50']/1000:.2f} / {p['latency_us']['p99']/1000:.2f} |")
print(f"| sessions left after the peers fell silent, once --idle-timeout had passed | {left:,} |")
print(f"| with --max-udp-sessions {cap:,}: peak sessions / ok / errors | {capped_peak:,} / {c['ok']:,} / {c['errors']:,} |")
ok = peak >= n and p["bad"] == 0 and p["errors"] == 0 and p["ok"] == p["requests"] and left == 0 \
    and capped_peak <= cap and c["bad"] == 0
sys.stdout.flush()  # the table before the verdict, when both go to one file
print("\nPASS" if ok else "\nFAIL", file=sys.stderr)
sys.exit(0 if ok else 1)
EOF
