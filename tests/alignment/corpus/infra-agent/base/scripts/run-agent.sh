#!/usr/bin/env bash
set -euo pipefail
# Start the agent locally, the way compose does.
IMAGE="${IMAGE:-ghcr.io/acme/agent:dev}"
docker run --rm --read-only --cap-drop ALL "$IMAGE"
