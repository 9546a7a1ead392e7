#!/usr/bin/env python3
"""Heap per idle TCP connection of echo-server jars, measured as IdleConnectionFootprintIT does, round by round.

Each round starts every jar in turn as a server of its own (-Xms256m -Xmx256m -XX:+UseSerialGC, two I/O threads, epoll
by default, or $TRANSPORT), warms it with 200 connections opened and closed, reads its heap used after two full GCs (jcmd GC.run,
then its own /metrics), holds CONNECTIONS idle connections from this process, reads the heap again, and divides. The
jars take turns, so a change is measured against its baseline in the same round. Prints "ROUND heap NAME BYTES" lines,
which bench/ratio-summary.py summarises (lower is better here).

The heap used moves in steps of about 70 B per connection at 10,000 connections from one reading to the next, with the
same jar. So each round also prints "ROUND objects NAME BYTES": the bytes of live objects that a class histogram
(jmap -histo:live, which runs a full GC itself) counts, before and after, divided. That figure repeats to the byte.

usage: [TRANSPORT=epoll|io_uring|nio] bench/server-heap-per-connection.py ROUNDS CONNECTIONS NAME=JAR [NAME=JAR ...]
"""
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request


def scrape(url, series):
    body = urllib.request.urlopen(url, timeout=10).read().decode()
    return sum(float(line.rsplit(" ", 1)[1]) for line in body.splitlines() if line.startswith(series))


def wait_for(predicate, what, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise SystemExit(f"timed out waiting for {what}")


def heap_after_gc(pid, metrics):
    for _ in range(2):
        subprocess.run(["jcmd", str(pid), "GC.run"], check=True, stdout=subprocess.DEVNULL, timeout=30)
    return scrape(metrics, 'jvm_memory_used_bytes{area="heap"')


def live_object_bytes(pid):
    histogram = subprocess.run(["jmap", "-histo:live", str(pid)], check=True, capture_output=True, text=True,
                               timeout=60).stdout
    total = re.search(r"^Total\s+\d+\s+(\d+)", histogram, re.MULTILINE)
    return int(total.group(1))


def connect(port, count):
    sockets = []
    for _ in range(count):
        s = socket.socket()
        s.connect(("127.0.0.1", port))
        sockets.append(s)
    return sockets


def measure(jar, connections, transport):
    server = subprocess.Popen(["java", "-Xms256m", "-Xmx256m", "-XX:+UseSerialGC", "-XX:+StartAttachListener",
                               "-jar", jar, "--tcp-port", "0", "--udp-port", "-1", "--rpc-port", "-1",
                               "--metrics-port", "0", "--idle-timeout", "10m", "--io-threads", "2",
                               "--transport", transport], stdout=subprocess.PIPE, text=True)
    try:
        ports = {}
        while "metrics" not in ports:
            line = server.stdout.readline()
            if not line:
                raise SystemExit(f"{jar} did not start")
            found = re.match(r"listening (tcp|metrics) (?:http://)?[\d.]+:(\d+)", line)
            if found:
                ports[found.group(1)] = int(found.group(2))
        metrics = f"http://127.0.0.1:{ports['metrics']}/metrics"
        active = lambda n: lambda: scrape(metrics, "ricochet_connections_active{") == n
        warm = connect(ports["tcp"], 200)
        wait_for(active(200), "200 connections")
        for s in warm:
            s.close()
        wait_for(active(0), "the warm-up connections to close")
        before = heap_after_gc(server.pid, metrics)
        objects_before = live_object_bytes(server.pid)
        held = connect(ports["tcp"], connections)
        wait_for(active(connections), f"{connections} connections")
        after = heap_after_gc(server.pid, metrics)
        objects_after = live_object_bytes(server.pid)
        for s in held:
            s.close()
        return (after - before) / connections, (objects_after - objects_before) / connections
    finally:
        server.terminate()
        server.wait(timeout=30)


def main():
    rounds, connections = int(sys.argv[1]), int(sys.argv[2])
    jars = [arg.split("=", 1) for arg in sys.argv[3:]]
    transport = os.environ.get("TRANSPORT", "epoll")
    print(f"# heap per idle connection, {connections} connections, {transport}, serial GC, -Xmx256m, "
          f"{rounds} rounds, jars taking turns: " + ", ".join(f"{n}={j}" for n, j in jars), flush=True)
    for rnd in range(1, rounds + 1):
        order = jars[rnd % len(jars):] + jars[:rnd % len(jars)]
        for name, jar in order:
            heap, objects = measure(jar, connections, transport)
            print(f"{rnd} heap {name} {heap:.0f}", flush=True)
            print(f"{rnd} objects {name} {objects:.0f}", flush=True)


if __name__ == "__main__":
    main()
