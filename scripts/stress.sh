#!/usr/bin/env bash
# Loads this machine the way a shared CI runner is loaded, for a bounded time, so that CI can be
# run beside it (docs/benchmarks.md, "CI under load"): a CPU-bound process on every core, a disk
# writer (dd with fsync, in a temp directory), and a loop of image builds on each engine CI uses
# (Docker's socket, and Podman's when it answers). Loopback only: the builds run without a network
# and nothing listens. Its images carry org.docker-acceptance.stress=<pid>, never the tool's owner
# label, so no run of the tool takes them for its own; the script removes them itself.
#
# Usage: bash scripts/stress.sh [SECONDS]   (default 1800; ends early on SIGINT/SIGTERM)
# Settings: DA_STRESS_SOCKETS (engine sockets to build on, space-separated; default
# /var/run/docker.sock and /run/da-podman/podman.sock), DA_BASE_IMAGE. Each socket is asked before
# every build, so an engine that CI starts after this script (Podman's, in its own leg) is loaded too.
set -euo pipefail

SECONDS_TOTAL="${1:-1800}"
[[ "$SECONDS_TOTAL" =~ ^[0-9]+$ ]] || { echo "stress.sh: SECONDS must be a whole number, not '$SECONDS_TOTAL'" >&2; exit 2; }
BASE_IMAGE="${DA_BASE_IMAGE:-docker-acceptance/busybox:local}"
LABEL="org.docker-acceptance.stress=$$"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/da-stress.XXXXXX")
log() { echo "stress.sh: $*" >&2; }

answers() { [ -S "$1" ] && curl -sf --max-time 5 --unix-socket "$1" http://localhost/_ping >/dev/null 2>&1; }
DA_STRESS_SOCKETS="${DA_STRESS_SOCKETS:-/var/run/docker.sock /run/da-podman/podman.sock}"

children=()
builders=()
stop() {
  trap - EXIT INT TERM
  for pid in "${children[@]}"; do kill "$pid" 2>/dev/null || true; done
  # A build the engine has started finishes there whoever waits for it: the loops are asked to stop
  # and waited for (at most 3 minutes), so that every image they made exists when they are removed.
  touch "$WORK/stop"
  for _ in $(seq 180); do
    alive=0
    for pid in "${builders[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && break
    sleep 1
  done
  for pid in "${builders[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  # Only what this script built: its own label, by ID.
  for s in $DA_STRESS_SOCKETS; do
    ids=$(docker -H "unix://$s" images -q --filter "label=$LABEL" 2>/dev/null | sort -u)
    [ -z "$ids" ] || docker -H "unix://$s" rmi -f $ids >/dev/null 2>&1 || true
  done
  rm -rf "$WORK"
  log "stopped"
}
trap stop EXIT INT TERM

cores=$(nproc)
log "for ${SECONDS_TOTAL} s: ${cores} CPU hog(s), a disk writer in $WORK, builds on whichever answers of: $DA_STRESS_SOCKETS"

for _ in $(seq "$cores"); do
  (while :; do :; done) &
  children+=($!)
done

(while :; do
  dd if=/dev/zero of="$WORK/io" bs=1M count=128 conv=fsync status=none
  rm -f "$WORK/io"
done) &
children+=($!)

mkdir -p "$WORK/context"
cat >"$WORK/context/Dockerfile" <<'EOF'
ARG BASE_IMAGE
FROM ${BASE_IMAGE}
ARG N
# Work the engine's builder does on the CPU and the disk, different each time (N): no cache hit.
RUN i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done; head -c 8388608 /dev/urandom >/stamp-$N; echo $N
EOF
for s in $DA_STRESS_SOCKETS; do
  (n=0
  while [ ! -e "$WORK/stop" ]; do
    answers "$s" || { sleep 5; continue; }
    n=$((n + 1))
    tag="da-stress-$$:$n"
    DOCKER_BUILDKIT=0 docker -H "unix://$s" build -q --network none --label "$LABEL" \
      --build-arg "BASE_IMAGE=$BASE_IMAGE" --build-arg "N=$n" -t "$tag" "$WORK/context" >/dev/null 2>&1 || sleep 1
    docker -H "unix://$s" rmi "$tag" >/dev/null 2>&1 || true
  done) &
  builders+=($!)
done

sleep "$SECONDS_TOTAL" &
children+=($!)
wait $!
