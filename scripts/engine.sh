#!/usr/bin/env bash
# Makes sure a Docker engine answers and the local base images the fixtures need exist.
# Used by .ci/run, `npm run demo` and `npm test` set-up. On a Debian machine as root it
# installs and starts the engine; elsewhere it stops with one line naming what is missing.
set -euo pipefail

BASE_IMAGE="${DA_BASE_IMAGE:-docker-acceptance/busybox:local}"
DEBIAN_IMAGE="${DA_DEBIAN_IMAGE:-docker-acceptance/debian:bookworm}"
# Bumped when the recipe of a base image changes, so an engine that kept an older one remakes it.
RECIPE_LABEL=org.docker-acceptance.base-recipe
RECIPE=2
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
make_busybox_image() {
  command -v busybox >/dev/null 2>&1 || fail "busybox (busybox-static) is needed to make $BASE_IMAGE"
  local bb root
  bb=$(command -v busybox)
  root=$(mktemp -d)
  # mktemp -d makes 0700; the image's / must be 0755 or non-root users cannot reach anything.
  chmod 0755 "$root"
  mkdir -p "$root/bin" "$root/etc" "$root/tmp" "$root/proc" "$root/sys" "$root/dev" "$root/var/www" "$root/usr/bin" "$root/usr/sbin" "$root/sbin"
  cp "$bb" "$root/bin/busybox"
  for applet in $("$root/bin/busybox" --list); do
    [ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
  done
  chmod 1777 "$root/tmp"
  printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\nnonroot:x:65532:65532:nonroot:/home/nonroot:/bin/false\n' >"$root/etc/passwd"
  printf 'root:x:0:\nnogroup:x:65534:\nnonroot:x:65532:\n' >"$root/etc/group"
  tar -C "$root" -c . | docker import -c 'ENV PATH=/bin:/usr/bin:/sbin:/usr/sbin' -c 'CMD ["/bin/sh"]' \
    -c "LABEL $RECIPE_LABEL=$RECIPE" - "$BASE_IMAGE" >/dev/null
  rm -rf "$root"
  echo "engine.sh: made base image $BASE_IMAGE from $bb"
}

# The machine's own Debian archive and security URIs, from its apt sources (deb822 .sources and
# one-line .list files). Only those: a third-party repository would need keys the rootfs lacks.
debian_uris() {
  local files=() f
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && files+=("$f")
  done
  [ "${#files[@]}" -gt 0 ] || return 0
  awk '
    /^[[:space:]]*#/ { next }
    /^URIs:/ { for (i = 2; i <= NF; i++) print $i; next }
    /^deb[[:space:]]/ { for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) { print $i; break } }
  ' "${files[@]}" | sed 's:/*$::' | grep -E '/debian(-security)?$' | awk '!seen[$0]++'
}

# A real Debian base for the realistic fixtures: mmdebstrap minbase from the machine's configured
# mirror, so `apt-get install` inside `docker build` reaches the same mirror with the same options.
make_debian_image() {
  command -v mmdebstrap >/dev/null 2>&1 || {
    [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 || return 1
    echo "engine.sh: installing mmdebstrap from Debian's packages"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=300 --no-install-recommends mmdebstrap >/dev/null 2>&1 ||
      { apt-get update -qq -o DPkg::Lock::Timeout=300 &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=300 --no-install-recommends mmdebstrap >/dev/null; } || return 1
  }
  local uri archive="" security="" mirrors=() aptopts=() opt value tarball
  while read -r uri; do
    case "$uri" in
      */debian-security) [ -n "$security" ] || security=$uri ;;
      */debian) [ -n "$archive" ] || archive=$uri ;;
    esac
  done < <(debian_uris)
  [ -n "$archive" ] || archive=http://deb.debian.org/debian
  mirrors=("deb $archive bookworm main" "deb $archive bookworm-updates main")
  [ -z "$security" ] || mirrors+=("deb $security bookworm-security main")
  # Carry the host's apt options that make its mirror usable (a dated snapshot, a proxy).
  for opt in Acquire::Check-Valid-Until Acquire::Check-Date Acquire::http::Proxy Acquire::https::Proxy; do
    value=$(apt-config dump "$opt" 2>/dev/null | awk -v k="$opt" '$1 == k { $1 = ""; sub(/^ /, ""); print; exit }')
    [ -z "$value" ] || aptopts+=("--aptopt=$opt $value")
  done
  tarball=$(mktemp --suffix=.tar)
  echo "engine.sh: making $DEBIAN_IMAGE with mmdebstrap from $archive (about 20 s)"
  if ! mmdebstrap --quiet --variant=minbase "${aptopts[@]}" bookworm "$tarball" "${mirrors[@]}" >&2; then
    rm -f "$tarball"
    return 1
  fi
  docker import -c 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' -c 'CMD ["bash"]' \
    -c "LABEL $RECIPE_LABEL=$RECIPE" "$tarball" "$DEBIAN_IMAGE" >/dev/null
  rm -f "$tarball"
  echo "engine.sh: made base image $DEBIAN_IMAGE"
}

current() {
  [ "$(docker image inspect --format "{{index .Config.Labels \"$RECIPE_LABEL\"}}" "$1" 2>/dev/null)" = "$RECIPE" ]
}

current "$BASE_IMAGE" || make_busybox_image
if ! current "$DEBIAN_IMAGE"; then
  # The realistic fixtures need it; elsewhere a developer can still run everything else.
  if ! make_debian_image; then
    [ "${CI:-}" = true ] && fail "could not make $DEBIAN_IMAGE (needs mmdebstrap and the machine's Debian mirror)"
    echo "engine.sh: could not make $DEBIAN_IMAGE (needs mmdebstrap); the realistic fixture tests will skip" >&2
  fi
fi
echo "engine.sh: engine ready ($(docker version --format '{{.Server.Version}}')), base images $BASE_IMAGE $DEBIAN_IMAGE"
