#!/usr/bin/env bash
# Prints the path of the Docker engine's default seccomp profile (default.json), which the fault
# matrix's "engine default, given explicitly" twin and the seccomp grader's test compare against.
# dockerd compiles its default in and has no call that prints it, so the profile comes from the
# engine's own source, for the version that answers:
#   - up to Docker 27 the engine's source package (Debian's golang-github-docker-docker-dev) holds
#     profiles/seccomp/default.json: only that one file is extracted, once, into a cache directory;
#   - from Docker 28 the profile lives in its own Go module (github.com/moby/profiles/seccomp),
#     which no Debian package ships: the copy of the module's release Docker 28 builds with is
#     kept beside the fault matrix (acceptance/fixtures/faults/seccomp/, with its licence).
# DA_SECCOMP_DEFAULT, when set, wins.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[ -z "${DA_SECCOMP_DEFAULT:-}" ] || { echo "$DA_SECCOMP_DEFAULT"; exit 0; }
shipped="$here/acceptance/fixtures/faults/seccomp/moby-profiles-v0.1.0.json"
rel=usr/share/gocode/src/github.com/docker/docker/profiles/seccomp/default.json
cache="${DA_CACHE_DIR:-/var/cache/docker-acceptance}/seccomp"

version=$(docker version --format '{{.Server.Version}}' 2>/dev/null || true)
major=${version%%.*}
if [[ "$major" =~ ^[0-9]+$ ]] && [ "$major" -ge 28 ]; then echo "$shipped"; exit 0; fi

if [ -f "/$rel" ]; then echo "/$rel"; exit 0; fi
extracted="$cache/$rel"
if [ ! -f "$extracted" ]; then
  command -v apt-get >/dev/null 2>&1 || { echo "seccomp-default.sh: no apt-get to fetch golang-github-docker-docker-dev; set DA_SECCOMP_DEFAULT" >&2; exit 1; }
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && apt-get download -qq golang-github-docker-docker-dev >/dev/null 2>&1) ||
    { apt-get update -qq && (cd "$work" && apt-get download -qq golang-github-docker-docker-dev >/dev/null); }
  dpkg-deb -x "$work"/golang-github-docker-docker-dev_*.deb "$work/x"
  # A package of Docker 28 or later no longer holds the file: the module's copy is the profile.
  [ -f "$work/x/$rel" ] || { echo "$shipped"; exit 0; }
  mkdir -p "$(dirname "$extracted")"
  cp "$work/x/$rel" "$extracted"
fi
echo "$extracted"
