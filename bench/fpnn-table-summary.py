#!/usr/bin/env python3
"""Turns bench/fpnn-encryption-table.sh's lines into the markdown table of docs/performance.md: per contender and
shape, the median and range over rounds of QPS and of its ratio to plaintext in the same round and shape, and the
medians of p50, p99 and the server's CPU. usage: bench/fpnn-table-summary.py raw.txt"""
import re
import statistics
import sys
from collections import defaultdict

LINE = re.compile(r"round (\d+) (\S+) (\d+)x(\d+): qps (\d+) p50 (\d+) p99 (\d+) server_cpu_max (\S+) bad (\d+) errors (\d+)"
                  r"(?: suite (\S+))?")
cells = defaultdict(dict)
suites = {}
print_suites = "--suites" in sys.argv
for line in open(sys.argv[1]):
    m = LINE.search(line)
    if not m:
        continue
    rnd, contender, conns, depth, qps, p50, p99, cpu, bad, errors, suite = m.groups()
    if int(bad) or int(errors):
        sys.exit("bad replies or errors in: " + line.strip())
    cells[(contender, int(conns), int(depth))][int(rnd)] = (int(qps), int(p50), int(p99), float(cpu))
    if suite and suite != "-":
        suites[contender] = suite.replace("_", " ").replace(" (openssl client)", "")

LABELS = {"plain": "plaintext", "tls-openssl-128": "TLS, OpenSSL, AES-128", "tls-openssl-256": "TLS, OpenSSL, AES-256",
          "tls-jdk-128": "TLS, JDK, AES-128", "tls-jdk-256": "TLS, JDK, AES-256",
          "noise-package-128": "Noise package, AES-128", "noise-package-256": "Noise package, AES-256",
          "noise-stream-128": "Noise stream, AES-128", "noise-stream-256": "Noise stream, AES-256"}


def span(values, fmt):
    return "%s (%s–%s)" % (fmt.format(statistics.median(values)), fmt.format(min(values)), fmt.format(max(values)))

order = []
for contender, conns, depth in cells:
    if contender not in order:
        order.append(contender)
print("| contender | connections × in flight | QPS, median (range) | × plaintext, median (range) | p50 µs | p99 µs | server CPU |")
print("|---|---|---:|---:|---:|---:|---:|")
for conns, depth in sorted({(c, d) for _, c, d in cells}):
    for contender in order:
        runs = cells.get((contender, conns, depth))
        if not runs:
            continue
        plain = cells[("plain", conns, depth)]
        qps = [r[0] for r in runs.values()]
        ratios = [runs[r][0] / plain[r][0] for r in runs if r in plain]
        name = LABELS.get(contender, contender)
        print("| %s | %s × %d | %s | %s | %s | %s | %.0f%% |" % (
            name, "{:,}".format(conns), depth, span(qps, "{:,.0f}"), span(ratios, "{:.2f}"),
            "{:,}".format(statistics.median(r[1] for r in runs.values())),
            "{:,}".format(statistics.median(r[2] for r in runs.values())),
            100 * statistics.median(r[3] for r in runs.values())))
if print_suites:
    print()
    for contender, suite in suites.items():
        print("%s: %s" % (LABELS.get(contender, contender), suite))
