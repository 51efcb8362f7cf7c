#!/usr/bin/env bash
# Makes sure a Docker engine answers and the local base images the fixtures need exist.
# Used by .ci/run, `npm run demo` and `npm test` set-up. On a Debian machine as root it
# installs and starts the engine; elsewhere it stops with one line naming what is missing.
set -euo pipefail

BASE_IMAGE="${DA_BASE_IMAGE:-docker-acceptance/busybox:local}"
SOCK="${DOCKER_SOCK:-/var/run/docker.sock}"

ping_engine() {
  if command -v curl >/dev/null 2>&1; then
    curl -sf --unix-socket "$SOCK" http://localhost/_ping >/dev/null 2>&1
  else
    docker version --format '{{.Server.Version}}' >/dev/null 2>&1
  fi
}

fail() { echo "engine.sh: $*" >&2; exit 1; }

if ! ping_engine; then
  if ! command -v dockerd >/dev/null 2>&1 || ! command -v busybox >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
      echo "engine.sh: installing docker.io and busybox-static from Debian's packages"
      apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io busybox-static >/dev/null
    else
      fail "no Docker engine answers on $SOCK; install Docker (and busybox-static) or start dockerd, then retry"
    fi
  fi
  if [ "$(id -u)" != 0 ]; then
    fail "dockerd is installed but not running; start it (sudo systemctl start docker) and retry"
  fi
  echo "engine.sh: starting dockerd"
  mkdir -p /var/log
  nohup dockerd >/var/log/dockerd.log 2>&1 &
  for _ in $(seq 1 120); do ping_engine && break; sleep 0.5; done
  ping_engine || fail "dockerd did not answer /_ping within 60 s; see /var/log/dockerd.log"
fi

# The fixtures build FROM a base image passed as a build arg. With no registry here, make one
# from the static busybox: a rootfs with /bin/busybox and its applet links, imported as an image.
if ! docker image inspect "$BASE_IMAGE" >/dev/null 2>&1; then
  command -v busybox >/dev/null 2>&1 || fail "busybox (busybox-static) is needed to make $BASE_IMAGE"
  bb=$(command -v busybox)
  root=$(mktemp -d)
  trap 'rm -rf "$root"' EXIT
  mkdir -p "$root/bin" "$root/etc" "$root/tmp" "$root/proc" "$root/sys" "$root/dev" "$root/var/www" "$root/usr/bin" "$root/usr/sbin" "$root/sbin"
  cp "$bb" "$root/bin/busybox"
  for applet in $("$root/bin/busybox" --list); do
    [ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
  done
  chmod 1777 "$root/tmp"
  printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\nnonroot:x:65532:65532:nonroot:/home/nonroot:/bin/false\n' >"$root/etc/passwd"
  printf 'root:x:0:\nnogroup:x:65534:\nnonroot:x:65532:\n' >"$root/etc/group"
  tar -C "$root" -c . | docker import -c 'ENV PATH=/bin:/usr/bin:/sbin:/usr/sbin' -c 'CMD ["/bin/sh"]' - "$BASE_IMAGE" >/dev/null
  echo "engine.sh: made base image $BASE_IMAGE from $bb"
fi
echo "engine.sh: engine ready ($(docker version --format '{{.Server.Version}}')), base image $BASE_IMAGE"
