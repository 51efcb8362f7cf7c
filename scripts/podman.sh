#!/usr/bin/env bash
# Makes sure a rootful Podman answers on its Docker-compatible socket, for the second CI leg.
# Installs podman and catatonit (Init: true needs it; Debian's podman only recommends it), writes a
# containers.conf this machine can honour, starts `podman system service` in the background, waits
# for /_ping, and copies the base images engine.sh made in Docker into Podman's storage (built once
# per machine, reused by both engines). Prints `export DOCKER_HOST=...` lines on stdout last.
#
#   scripts/podman.sh [--fresh]
#
# --fresh (what .ci/run passes) stops a service this script started earlier and starts a new one:
# a service that has run for hours was seen to fail every hardened start ("write child: broken
# pipe") until it was restarted, so a CI leg never inherits one.
set -euo pipefail
fresh=0
[ "${1:-}" = --fresh ] && fresh=1

DIR="${DA_PODMAN_DIR:-/run/da-podman}"
SOCK="$DIR/podman.sock"
CONF="$DIR/containers.conf"

fail() { echo "podman.sh: $*" >&2; exit 1; }
log() { echo "podman.sh: $*" >&2; }

[ "$(id -u)" = 0 ] || fail "rootful Podman needs root; run as root (rootless: see README, Engines)"
if ! command -v podman >/dev/null 2>&1 || ! command -v catatonit >/dev/null 2>&1; then
  command -v apt-get >/dev/null 2>&1 || fail "podman and catatonit are missing and apt-get is not here; install them"
  log "installing podman and catatonit from Debian's packages"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends podman catatonit >/dev/null
fi
mkdir -p "$DIR"

# Podman raises nofile and nproc to 1048576 in every container by default; without
# CAP_SYS_RESOURCE the runtime cannot, and every create fails. Give containers this host's limits.
nofile=$(ulimit -Hn)
nproc=$(ulimit -Hu)
[ "$nofile" = unlimited ] && nofile=1048576
[ "$nproc" = unlimited ] && nproc=1048576
# Podman lowers its own nproc to the kernel's pid_max at start; a container cannot get more.
pid_max=$(cat /proc/sys/kernel/pid_max)
[ "$nproc" -gt "$pid_max" ] && nproc=$pid_max
init=$(command -v catatonit)
cgroup_manager=cgroupfs
[ -d /run/systemd/system ] && cgroup_manager=systemd
cat >"$CONF" <<EOF
# Written by scripts/podman.sh
[containers]
default_ulimits = ["nofile=$nofile:$nofile", "nproc=$nproc:$nproc"]
init_path = "$init"

[engine]
cgroup_manager = "$cgroup_manager"
events_logger = "file"
EOF
export CONTAINERS_CONF="$CONF"

ping_podman() { curl -sf --unix-socket "$SOCK" http://localhost/_ping >/dev/null 2>&1; }

if [ "$fresh" = 1 ] && [ -s "$DIR/service.pid" ]; then
  pid=$(cat "$DIR/service.pid")
  if kill -0 "$pid" 2>/dev/null && grep -qa 'system.service' "/proc/$pid/cmdline" 2>/dev/null; then
    log "stopping the podman service started earlier (pid $pid) for a fresh one"
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$DIR/service.pid"
fi

if ! ping_podman; then
  rm -f "$SOCK"
  log "starting podman system service on $SOCK"
  # From /: conmon needs the service's working directory, and a clone it was started in goes.
  (cd / && exec nohup podman system service --time=0 "unix://$SOCK" >"$DIR/service.log" 2>&1) &
  echo $! >"$DIR/service.pid"
  for _ in $(seq 1 60); do ping_podman && break; sleep 0.5; done
  ping_podman || fail "podman did not answer /_ping within 30 s; see $DIR/service.log"
fi

# The base images: made once in Docker by engine.sh, copied here unless Podman holds the same image
# (save/load keeps the image ID, so a base image engine.sh remade is copied again).
# The base images engine.sh makes (same names and overrides); the Debian one only where it exists.
images="${DA_PODMAN_IMAGES:-${DA_BASE_IMAGE:-docker-acceptance/busybox:local} ${DA_DEBIAN_IMAGE:-docker-acceptance/debian:bookworm}}"
for image in $images; do
  want=$(docker image inspect -f '{{.Id}}' "$image" 2>/dev/null) || { log "$image is not in Docker; not copied"; continue; }
  have=$(podman image inspect -f '{{.Id}}' "$image" 2>/dev/null || true)
  [ "${want#sha256:}" = "${have#sha256:}" ] && continue
  docker save "$image" | podman load -q >/dev/null || fail "could not copy $image from Docker into Podman"
  log "copied $image into Podman's storage"
done

log "Podman ready ($(podman version --format '{{.Server.Version}}' 2>/dev/null || podman --version)) on $SOCK"
echo "export DOCKER_HOST=unix://$SOCK"
echo "export CONTAINERS_CONF=$CONF"
