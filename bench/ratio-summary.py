#!/usr/bin/env python3
"""Summarises interleaved benchmark rounds: median and range per contender, and ratios per round.

Reads lines "ROUND CASE CONTENDER QPS" (other lines are ignored) from stdin or files, and prints, per case, each
contender's median (min-max) and, for every "A/B" given with --ratio, the median and range of A/B taken round by
round (both measured in the same round, so the ratio is what is compared).

usage: ratio-summary.py --ratio ricochet/c --ratio ricochet/netty [FILE ...]
"""
import argparse
import statistics
import sys
from collections import defaultdict


def spread(values, fmt):
    values = sorted(values)
    return f"{fmt(statistics.median(values))} ({fmt(values[0])}-{fmt(values[-1])})"


def rate(q):
    return f"{q / 1000:,.1f}K" if q < 1e6 else f"{q / 1e6:,.3f}M"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ratio", action="append", default=[], help="A/B: contender A's rate over B's, per round")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    runs = defaultdict(dict)  # (case) -> {(round, contender): qps}
    cases, contenders = [], []
    lines = [l for f in args.files for l in open(f)] if args.files else sys.stdin
    for line in lines:
        parts = line.split()
        if len(parts) != 4 or not parts[0].isdigit():
            continue
        rnd, case, who, qps = int(parts[0]), parts[1], parts[2], float(parts[3])
        runs[case][(rnd, who)] = qps
        if case not in cases:
            cases.append(case)
        if who not in contenders:
            contenders.append(who)
    header = ["case"] + contenders + [r for r in args.ratio]
    rows = []
    for case in cases:
        row = [case]
        for who in contenders:
            qs = [q for (rnd, w), q in runs[case].items() if w == who]
            row.append(spread(qs, rate) if qs else "-")
        for ratio in args.ratio:
            a, b = ratio.split("/")
            rounds = sorted({rnd for (rnd, _) in runs[case]})
            rs = [runs[case][(r, a)] / runs[case][(r, b)] for r in rounds
                  if (r, a) in runs[case] and runs[case].get((r, b))]
            row.append(spread(rs, lambda x: f"{x:.2f}") if rs else "-")
        rows.append(row)
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" if i == 0 else "---:" for i in range(len(header))) + "|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    n = max((len({r for (r, _) in v}) for v in runs.values()), default=0)
    print(f"\nmedian (min-max) of {n} interleaved rounds; ratios are taken round by round.")


if __name__ == "__main__":
    main()
