#!/usr/bin/env bash
# Prints the path of the Docker engine's default seccomp profile (default.json), which the fault
# matrix's "engine default, given explicitly" twin and the seccomp grader's test compare against.
# Debian ships it in the engine's source package; only that one file is extracted (no Go toolchain,
# no dependencies), once, into a cache directory.
set -euo pipefail
installed=/usr/share/gocode/src/github.com/docker/docker/profiles/seccomp/default.json
cache="${DA_CACHE_DIR:-/var/cache/docker-acceptance}/seccomp"
extracted="$cache/usr/share/gocode/src/github.com/docker/docker/profiles/seccomp/default.json"
if [ -f "$installed" ]; then echo "$installed"; exit 0; fi
if [ ! -f "$extracted" ]; then
  command -v apt-get >/dev/null 2>&1 || { echo "seccomp-default.sh: no apt-get to fetch golang-github-docker-docker-dev; set DA_SECCOMP_DEFAULT" >&2; exit 1; }
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && apt-get download -qq golang-github-docker-docker-dev >/dev/null 2>&1) ||
    { apt-get update -qq && (cd "$work" && apt-get download -qq golang-github-docker-docker-dev >/dev/null); }
  mkdir -p "$cache"
  dpkg-deb -x "$work"/golang-github-docker-docker-dev_*.deb "$work/x"
  mkdir -p "$(dirname "$extracted")"
  cp "$work/x/usr/share/gocode/src/github.com/docker/docker/profiles/seccomp/default.json" "$extracted"
fi
echo "$extracted"
