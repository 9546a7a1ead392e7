#!/usr/bin/env python3
"""Summarises bench/noise-flood.sh: the median (min-max) over rounds of each measure, per jar and flood shape.

Reads lines "round R JAR flood=N key=value ..." from files or stdin; other lines are ignored.

usage: noise-flood-summary.py [FILE ...]
"""
import statistics
import sys
from collections import defaultdict

MEASURES = ["probe_p50_ms", "probe_p99_ms", "probe_max_ms", "answered_per_s", "refused_per_s", "server_cpu_pct"]


def main():
    lines = [l for f in sys.argv[1:] for l in open(f)] if len(sys.argv) > 1 else sys.stdin
    values = defaultdict(lambda: defaultdict(list))  # (flood, jar) -> measure -> [value]
    for line in lines:
        parts = line.split()
        if len(parts) < 4 or parts[0] != "round":
            continue
        fields = dict(p.split("=", 1) for p in parts[3:] if "=" in p)
        key = (int(fields["flood"]), parts[2])
        for measure in MEASURES:
            if measure in fields:
                values[key][measure].append(float(fields[measure]))
    for key in sorted(values, key=lambda k: (k[0], k[1] != "before")):
        flood, jar = key
        cells = []
        for measure in MEASURES:
            v = sorted(values[key][measure])
            if v:
                cells.append(f"{measure} {statistics.median(v):g} ({v[0]:g}-{v[-1]:g})")
        print(f"flood={flood} {jar} n={len(values[key]['probe_p99_ms'])}: " + ", ".join(cells))


if __name__ == "__main__":
    main()
