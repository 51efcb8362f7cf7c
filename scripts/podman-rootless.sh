#!/usr/bin/env bash
# Rootless Podman for the third CI leg: a user with subordinate ids, its own containers.conf and
# storage, `podman system service` as that user, the busybox base image loaded. Needs root (to
# make the user) and podman.sh's packages plus uidmap. Prints `export DOCKER_HOST=...` last.
# On cgroup v1 rootless containers get no resource limits and no cgroup of their own; without
# /dev/net/tun there is no rootless bridge network: only network "none" subjects run here.
set -euo pipefail

USER_NAME="${DA_ROOTLESS_USER:-darootless}"
DIR="${DA_ROOTLESS_DIR:-/run/da-podman-rootless}"
BASE_IMAGE="${DA_BASE_IMAGE:-docker-acceptance/busybox:local}"
fail() { echo "podman-rootless.sh: $*" >&2; exit 1; }
log() { echo "podman-rootless.sh: $*" >&2; }

[ "$(id -u)" = 0 ] || fail "run as root: it creates the rootless user"
command -v newuidmap >/dev/null 2>&1 || {
  log "installing uidmap"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends uidmap >/dev/null
}
# A rootless container's IPC namespace gets the host's /dev/mqueue bound in ("statfs /dev/mqueue"
# fails every create without it); a host whose /dev lacks it (seen once here) gets it mounted.
if [ ! -d /dev/mqueue ] || ! grep -q " /dev/mqueue " /proc/self/mounts; then
  log "mounting /dev/mqueue (rootless Podman binds it into each container)"
  mkdir -p /dev/mqueue
  mount -t mqueue mqueue /dev/mqueue
fi
id "$USER_NAME" >/dev/null 2>&1 || useradd -m -s /bin/sh "$USER_NAME"
grep -q "^$USER_NAME:" /etc/subuid || echo "$USER_NAME:300000:65536" >>/etc/subuid
grep -q "^$USER_NAME:" /etc/subgid || echo "$USER_NAME:300000:65536" >>/etc/subgid
mkdir -p "$DIR/run"
chown -R "$USER_NAME" "$DIR"
chmod 700 "$DIR/run"
home=$(getent passwd "$USER_NAME" | cut -d: -f6)
mkdir -p "$home/.config/containers"
cat >"$home/.config/containers/containers.conf" <<CONF
[containers]
default_ulimits = ["nofile=$(ulimit -Hn):$(ulimit -Hn)", "nproc=$(cat /proc/sys/kernel/pid_max):$(cat /proc/sys/kernel/pid_max)"]
init_path = "$(command -v catatonit)"
[engine]
cgroup_manager = "cgroupfs"
events_logger = "file"
CONF
chown -R "$USER_NAME" "$home/.config"

as_user() { su -s /bin/sh "$USER_NAME" -c "export XDG_RUNTIME_DIR=$DIR/run; $1"; }
ping_podman() { curl -sf --unix-socket "$DIR/podman.sock" http://localhost/_ping >/dev/null 2>&1; }

want=$(docker image inspect -f '{{.Id}}' "$BASE_IMAGE") || fail "$BASE_IMAGE is not in Docker; run scripts/engine.sh first"
have=$(as_user "podman image inspect -f '{{.Id}}' $BASE_IMAGE 2>/dev/null" || true)
if [ "${want#sha256:}" != "${have#sha256:}" ]; then
  docker save "$BASE_IMAGE" -o "$DIR/base.tar"
  chown "$USER_NAME" "$DIR/base.tar"
  as_user "podman load -q -i $DIR/base.tar" >/dev/null 2>&1 || fail "could not load $BASE_IMAGE as $USER_NAME"
  rm -f "$DIR/base.tar"
fi
# A service whose working directory is gone (started in a clone since removed) answers /_ping
# but starts no container: conmon fails on it ("Failed to get working directory"). Started again.
for pid in $(pgrep -u "$USER_NAME" -f "podman system service" || true); do
  case $(readlink "/proc/$pid/cwd" 2>/dev/null) in
  *" (deleted)")
    log "restarting the rootless service (pid $pid): its working directory is gone"
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    ;;
  esac
done
if ! ping_podman; then
  as_user "cd / && nohup podman system service --time=0 unix://$DIR/podman.sock >$DIR/service.log 2>&1 &"
  for _ in $(seq 1 60); do ping_podman && break; sleep 0.5; done
  ping_podman || fail "rootless podman did not answer /_ping; see $DIR/service.log"
fi
log "rootless Podman ready as $USER_NAME on $DIR/podman.sock (cgroup $(as_user "podman info --format '{{.Host.CgroupsVersion}}'" 2>/dev/null))"
echo "export DOCKER_HOST=unix://$DIR/podman.sock"
