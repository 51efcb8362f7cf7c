#!/usr/bin/env bash
set -euo pipefail
# Start the agent locally, the way compose does.
IMAGE="${IMAGE:-ghcr.io/acme/agent:dev}"
docker run --rm --read-only --cap-drop ALL "$IMAGE"
echo "do not add --privileged here; grant one capability instead"
# --privileged was needed by the old probe
PROBE_ID="$(docker run -d --privileged "$IMAGE" probe)"
docker logs "$PROBE_ID"
