#!/usr/bin/env bash
# Makes a Docker engine answer and the Dockerfile's base image present, where no registry can be reached: the image
# is then a stand-in for eclipse-temurin:17-jre, made from Debian's packages (debootstrap's minbase of bookworm with
# openjdk-17-jre-headless) and imported under that name, so the Dockerfile builds unchanged. Where a registry is
# reachable, a build pulls the real base and this script is not needed.
#
# It installs docker.io and debootstrap from Debian's packages if they are missing (as root), and starts dockerd if no
# engine answers: without a bridge or iptables, so containers run on the host's network (loopback). It prints one
# line and exits 0 when ready; "unavailable: WHY" and exit 3 when this machine cannot run containers.
#
# usage: docker/stand-in-base.sh [MIRROR]   (MIRROR: a Debian mirror, default http://deb.debian.org/debian)
set -uo pipefail
BASE=eclipse-temurin:17-jre
MIRROR=${1:-http://deb.debian.org/debian}
DOCKER=/usr/bin/docker
STATE=${RICOCHET_DOCKER_STATE:-/tmp/ricochet-docker}
mkdir -p "$STATE"

unavailable() {
  echo "unavailable: $*"
  exit 3
}

if ! command -v dockerd > /dev/null || ! command -v debootstrap > /dev/null || [ ! -x "$DOCKER" ]; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get > /dev/null; then
    unavailable "no dockerd or debootstrap, and no root apt-get to install docker.io and debootstrap"
  fi
  { DEBIAN_FRONTEND=noninteractive apt-get install -y -q docker.io debootstrap > "$STATE/apt.log" 2>&1 \
      || { apt-get update > "$STATE/apt.log" 2>&1 \
           && DEBIAN_FRONTEND=noninteractive apt-get install -y -q docker.io debootstrap >> "$STATE/apt.log" 2>&1; }; } \
    || unavailable "apt-get install docker.io debootstrap failed (see $STATE/apt.log)"
fi

if ! "$DOCKER" info > /dev/null 2>&1; then
  [ "$(id -u)" = 0 ] || unavailable "no Docker engine answers, and only root may start dockerd"
  nohup dockerd --bridge=none --iptables=false > "$STATE/dockerd.log" 2>&1 &
  for _ in $(seq 60); do
    "$DOCKER" info > /dev/null 2>&1 && break
    sleep 0.5
  done
  "$DOCKER" info > /dev/null 2>&1 || unavailable "dockerd did not start (see $STATE/dockerd.log: $(tail -1 "$STATE/dockerd.log"))"
fi

if ! "$DOCKER" image inspect "$BASE" > /dev/null 2>&1; then
  ROOTFS=$(mktemp -d "$STATE/rootfs.XXXXXX")
  trap 'rm -rf "$ROOTFS"' EXIT
  debootstrap --variant=minbase --include=openjdk-17-jre-headless,ca-certificates bookworm "$ROOTFS" "$MIRROR" \
    > "$STATE/debootstrap.log" 2>&1 || unavailable "debootstrap from $MIRROR failed (see $STATE/debootstrap.log)"
  # What a JRE image needs and a build root does not: apt's lists and caches.
  rm -rf "$ROOTFS"/var/cache/apt/archives/*.deb "$ROOTFS"/var/lib/apt/lists/*
  tar -C "$ROOTFS" -c . | "$DOCKER" import -c 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    -m "stand-in for $BASE: Debian bookworm minbase with openjdk-17-jre-headless" - "$BASE" > /dev/null \
    || unavailable "docker import of the stand-in base failed"
fi
echo "ready: $("$DOCKER" version --format 'engine {{.Server.Version}}'), base $BASE ($("$DOCKER" image inspect --format '{{.Comment}}' "$BASE" | head -c 80))"
