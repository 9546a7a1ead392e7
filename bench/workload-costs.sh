#!/usr/bin/env bash
# What a no-code workload costs against the default one: the generator at 100 connections x 16 in flight against the C
# epoll echo server (faster than the generator, so the generator is what is measured), once with the default generated
# 64-byte bodies checked reversed, and once with each templated --payload and --expect mode below, every reply checked.
# Rounds interleave the variants; bench/ratio-summary.py gives each one's median and range against the default.
#
# usage: bench/workload-costs.sh [ROUNDS] [SECONDS]
# Needs the built jars (mvn -B -ntp -DskipTests package) and gcc. Writes target/bench/workload-costs.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-5}
SECS=${2:-5}
OUT=target/bench
mkdir -p "$OUT"
gcc -O2 -Wall -o "$OUT/echo_server" bench/native-echo-server/echo_server.c
"$OUT/echo_server" 0 > "$OUT/c-server.out" &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true' EXIT
for _ in $(seq 100); do grep -q "listening tcp" "$OUT/c-server.out" 2>/dev/null && break; sleep 0.1; done
PORT=$(sed -n 's/^listening tcp .*:\([0-9]*\)$/\1/p' "$OUT/c-server.out")
# Bodies of 64 bytes, but the templated seq-conn and regex variants' (about 45-55 bytes as their numbers grow); the
# server answers each reversed.
LIT=$(printf 'x%.0s' $(seq 64))
declare -A VARIANT=(
  [default]=""
  [constant]="--payload $LIT"
  [seq-conn]="--payload get-key-{{conn}}-{{seq}}-$(printf 'p%.0s' $(seq 30))"
  [rand]="--payload {{rand:32}}"
  [length]="--payload $LIT --expect length:64"
  [any]="--expect any"
  [regex]="--payload $(printf 'q%.0s' $(seq 40))-{{seq}}-get --expect regex:^teg-[0-9]+-q"
  [regex-constant]="--payload $(printf 'q%.0s' $(seq 64)) --expect regex:^q+$"
  [equals]="--payload abc-$(printf 'r%.0s' $(seq 56))-xyz --expect equals:zyx-$(printf 'r%.0s' $(seq 56))-cba"
)
ORDER=(${VARIANTS:-default constant seq-conn rand length any regex regex-constant equals})
echo "# $(date -u +%FT%TZ) commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(nproc) cores, C epoll" \
  "server on 127.0.0.1:$PORT, generator 100 x 16 x 64 B, ${SECS}s after 3s of warmup, one I/O thread" \
  | tee "$OUT/workload-costs.txt"
for round in $(seq "$ROUNDS"); do
  for v in "${ORDER[@]}"; do
    # shellcheck disable=SC2086
    qps=$(java -jar load-generator/target/load-generator.jar echo --target "127.0.0.1:$PORT" --connections 100 \
      --pipeline 16 --warmup 3s --duration "${SECS}s" --json ${VARIANT[$v]} 2>/dev/null \
      | python3 -c 'import json,sys; s=json.load(sys.stdin); assert s["bad"] == 0 and s["errors"] == 0, s; print(round(s["qps"]))')
    echo "$round 100:16:64 $v $qps" | tee -a "$OUT/workload-costs.txt"
  done
done
echo
RATIOS=()
for v in "${ORDER[@]:1}"; do RATIOS+=(--ratio "$v/default"); done
python3 bench/ratio-summary.py "${RATIOS[@]}" "$OUT/workload-costs.txt" | tee -a "$OUT/workload-costs.txt"
