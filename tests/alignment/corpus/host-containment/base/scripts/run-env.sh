#!/usr/bin/env bash
set -euo pipefail
docker run --rm -p 127.0.0.1:8000:8000 "$1"
